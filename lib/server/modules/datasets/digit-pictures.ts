/**
 * The built-in 8×8 handwritten digits (data/builtin/digits.csv: 1,797 real digits, about 180 per
 * class, UCI optdigits via scikit-learn, see data/builtin/README.md) drawn as pictures: each digit
 * white ink on black, smoothly upscaled with sharp and encoded as an image file. Deterministic: the
 * same row and options give the same bytes. The catalog's picture base model is pretrained on them
 * (training/catalog-pretraining.ts), and the tests build their image ZIPs from them
 * (tests/fixtures/image-zip.ts).
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { builtinDir } from "./builtin";

export type DigitImageFormat = "png" | "jpeg" | "webp" | "gif";

export interface DigitRow {
  label: number;
  /** 64 values, 0–255, row by row (the table's 0–16 scaled). */
  pixels: Uint8Array;
}

let table: { dir: string; rows: DigitRow[] } | null = null;

/** The built-in digits, 0–255 per pixel, in file order. */
export function digitRows(): DigitRow[] {
  const dir = builtinDir();
  if (table?.dir === dir) return table.rows;
  const lines = fs.readFileSync(path.join(dir, "digits.csv"), "utf8").trim().split("\n");
  const header = lines[0].split(",");
  const labelAt = header.indexOf("digit");
  const pixelAt = header.map((h, i) => (h.startsWith("pixel_") ? i : -1)).filter((i) => i >= 0);
  const rows = lines.slice(1).map((line) => {
    const cells = line.split(",");
    return {
      label: Number(cells[labelAt]),
      pixels: Uint8Array.from(pixelAt.map((i) => Math.round((Number(cells[i]) * 255) / 16))),
    };
  });
  table = { dir, rows };
  return rows;
}

/** The rows of one digit, in file order. */
export function rowsOf(digit: number): DigitRow[] {
  return digitRows().filter((r) => r.label === digit);
}

export interface DrawOptions {
  size?: number;
  width?: number;
  height?: number;
  channels?: 1 | 3 | 4;
  format?: DigitImageFormat;
  /** Palette PNG. */
  palette?: boolean;
}

/** Draws one 8×8 digit as an encoded image (white ink on black, smoothly upscaled; 28×28 grayscale PNG by default). */
export async function drawDigit(row: DigitRow, options: DrawOptions = {}): Promise<Buffer> {
  const width = options.width ?? options.size ?? 28;
  const height = options.height ?? options.size ?? 28;
  const channels = options.channels ?? 1;
  // Interleaved output: read the stride from the result (sharp may return 1 or 3 channels here).
  const { data: gray, info } = await sharp(Buffer.from(row.pixels), {
    raw: { width: 8, height: 8, channels: 1 },
  })
    .resize(width, height, { fit: "fill" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = Buffer.alloc(width * height * channels);
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < channels; c++) raw[i * channels + c] = c === 3 ? 255 : gray[i * info.channels];
  }
  let image = sharp(raw, { raw: { width, height, channels } });
  // A one-band raw image is written as RGB unless it is marked grayscale.
  if (channels === 1) image = image.toColourspace("b-w");
  switch (options.format ?? "png") {
    case "png":
      image = image.png({ palette: options.palette ?? false });
      break;
    case "jpeg":
      image = image.jpeg({ quality: 95 });
      break;
    case "webp":
      image = image.webp({ lossless: true });
      break;
    case "gif":
      image = image.gif();
      break;
  }
  return image.toBuffer();
}
