import sharp, { type OutputInfo } from "sharp";
import { ValidationError } from "../../errors";

/**
 * The one image decoder of the server: training materialisation, the dataset reader and serving all
 * call it, so a picture becomes exactly the same tensor wherever it is decoded.
 *
 * Steps, in order (each is deterministic for the same bytes and target):
 * 1. Decode with sharp: PNG, JPEG, WebP, GIF (first frame only), TIFF and AVIF, told by their
 *    signature (other formats sharp could read, SVG or PDF, never reach it); any mode (grayscale,
 *    grayscale + alpha, RGB, RGBA, palette, 16-bit). Images over MAX_IMAGE_PIXELS pixels are refused
 *    before they are decoded (no decompression bombs). The EXIF orientation of a photo is applied.
 * 2. Alpha is flattened on WHITE (a transparent background reads as white paper, the usual look of a
 *    drawing or an icon), then the image is converted to 8-bit sRGB.
 * 3. Resize to the target H×W (`resize`):
 *    - `stretch`: to exactly H×W, the aspect ratio is not kept;
 *    - `crop`: scaled to cover H×W, then the centre is cut out;
 *    - `pad`: scaled to fit inside H×W, the rest is filled with black (0).
 *    Resampling is sharp's default (Lanczos 3).
 * 4. Channels: 3 = R, G, B; 1 = luma by ITU-R BT.601, Y = (299·R + 587·G + 114·B) / 1000, rounded
 *    (the weights of Pillow's `convert("L")` and torchvision's Grayscale; their rounding may differ
 *    by one level).
 * The result is C×H×W uint8, channels first, rows in order (what the models' inputs take).
 */

export type ResizeMode = "stretch" | "crop" | "pad";

export interface ImageTarget {
  channels: 1 | 3;
  height: number;
  width: number;
  resize: ResizeMode;
}

/** Images with more pixels than this are refused before decoding (about 7,000 × 7,000). */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** The largest side a decoded target may have. */
export const MAX_TARGET_SIDE = 1024;

const NOT_AN_IMAGE = "The bytes are not a readable image (PNG, JPEG, WebP or GIF).";
const SHARP_OPTIONS = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" as const, pages: 1, page: 0 };

/**
 * The format by its signature: only these reach the decoder (never SVG, PDF or anything else sharp
 * could open). AVIF is an ISO-BMFF file whose `ftyp` brand is avif or avis.
 */
export function sniffImageFormat(b: Uint8Array): "png" | "jpeg" | "gif" | "webp" | "tiff" | "avif" | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  if (b.length < 12) return null;
  if (b[0] === 0x89 && ascii(1, 4) === "PNG") return "png";
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (ascii(0, 4) === "GIF8") return "gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  if (ascii(0, 4) === "II*\0" || ascii(0, 4) === "MM\0*") return "tiff";
  if (ascii(4, 8) === "ftyp" && ["avif", "avis"].includes(ascii(8, 12))) return "avif";
  return null;
}

function failure(err: unknown): ValidationError {
  if (err instanceof ValidationError) return err;
  const message = err instanceof Error ? err.message : "";
  if (/pixel limit/i.test(message))
    return new ValidationError(`The image has more than ${MAX_IMAGE_PIXELS.toLocaleString("en")} pixels.`);
  return new ValidationError(NOT_AN_IMAGE);
}

function bufferOf(bytes: Buffer | Uint8Array): Buffer {
  const input = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (input.length === 0) throw new ValidationError("The image is empty.");
  if (!sniffImageFormat(input)) throw new ValidationError(NOT_AN_IMAGE);
  return input;
}

export interface ImageFacts {
  format: string;
  width: number;
  height: number;
  /** Channels as stored (1 gray, 2 gray + alpha, 3 RGB, 4 RGBA; palette images as expanded). */
  channels: number;
}

/**
 * An image's format, size and channels, after decoding it fully (nothing is kept): what the dataset
 * profile records. Throws the ValidationError decodeImage would throw for the same bytes.
 */
export async function probeImage(bytes: Buffer | Uint8Array): Promise<ImageFacts> {
  const input = bufferOf(bytes);
  try {
    const image = sharp(input, SHARP_OPTIONS);
    const meta = await image.metadata();
    if (!meta.width || !meta.height) throw new ValidationError(NOT_AN_IMAGE);
    // Decoded whole when small (quicker than resampling); large pictures are reduced while decoded.
    if (meta.width * meta.height <= 4_000_000) await image.raw().toBuffer();
    else await image.resize(1, 1, { fit: "fill" }).raw().toBuffer();
    return {
      format: meta.format ?? "unknown",
      width: meta.width,
      height: meta.height,
      channels: meta.channels ?? 0,
    };
  } catch (err) {
    throw failure(err);
  }
}

function checkTarget(target: ImageTarget): void {
  if (target.channels !== 1 && target.channels !== 3)
    throw new ValidationError("An image input has 1 (grayscale) or 3 (RGB) channels.");
  for (const side of [target.height, target.width]) {
    if (!Number.isInteger(side) || side < 1 || side > MAX_TARGET_SIDE)
      throw new ValidationError(
        `An image input's height and width are whole numbers from 1 to ${MAX_TARGET_SIDE}.`,
      );
  }
  if (!["stretch", "crop", "pad"].includes(target.resize))
    throw new ValidationError("The image resize mode is one of stretch, crop or pad.");
}

function fitOf(resize: ResizeMode): "fill" | "cover" | "contain" {
  return resize === "stretch" ? "fill" : resize === "crop" ? "cover" : "contain";
}

/** Decodes image bytes to a C×H×W uint8 array (see the steps above). Throws ValidationError for anything that is not a readable image. */
export async function decodeImage(bytes: Buffer | Uint8Array, target: ImageTarget): Promise<Uint8Array> {
  checkTarget(target);
  const input = bufferOf(bytes);
  let raw: { data: Buffer; info: OutputInfo };
  try {
    const image = sharp(input, SHARP_OPTIONS);
    // A picture already of the target's size is not resampled (the result is the same, ~2× faster).
    const meta = await image.metadata();
    const turned = (meta.orientation ?? 1) >= 5;
    const sameSize =
      (turned ? meta.height : meta.width) === target.width &&
      (turned ? meta.width : meta.height) === target.height;
    let pipeline = image
      .autoOrient()
      .flatten({ background: { r: 255, g: 255, b: 255 } })
      .toColourspace("srgb");
    if (!sameSize)
      pipeline = pipeline.resize(target.width, target.height, {
        fit: fitOf(target.resize),
        position: "centre",
        background: { r: 0, g: 0, b: 0, alpha: 1 },
      });
    raw = await pipeline.removeAlpha().raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw failure(err);
  }
  const { data, info } = raw;
  const plane = target.height * target.width;
  if (info.width !== target.width || info.height !== target.height || data.length !== plane * info.channels)
    throw new ValidationError(NOT_AN_IMAGE);
  return toChannelsFirst(data, info.channels, plane, target.channels);
}

/** Interleaved HWC (1 or 3 source channels) to planar CHW with the target's channels. */
function toChannelsFirst(data: Buffer, from: number, plane: number, to: 1 | 3): Uint8Array {
  const out = new Uint8Array(plane * to);
  if (from === 1) {
    for (let c = 0; c < to; c++) out.set(data.subarray(0, plane), c * plane);
    return out;
  }
  if (to === 3) {
    for (let i = 0; i < plane; i++) {
      out[i] = data[i * from];
      out[plane + i] = data[i * from + 1];
      out[2 * plane + i] = data[i * from + 2];
    }
    return out;
  }
  for (let i = 0; i < plane; i++) {
    const j = i * from;
    out[i] = Math.round((299 * data[j] + 587 * data[j + 1] + 114 * data[j + 2]) / 1000);
  }
  return out;
}

/**
 * `(u8 / 255 - mean[c]) / std[c]` per channel of a C×H×W array, rounding to float32 after each step as
 * PyTorch does (`x.float() / 255`, then `sub(mean)`, `div(std)` on float32 tensors), so serving and the
 * PyTorch program agree to the bit.
 */
export function normalizeImage(u8: Uint8Array, mean: number[], std: number[]): Float32Array {
  const channels = mean.length;
  if (channels === 0 || std.length !== channels || u8.length % channels !== 0)
    throw new ValidationError("The image normalisation needs one mean and one std per channel.");
  if (std.some((s) => !(Number.isFinite(s) && s > 0)) || mean.some((m) => !Number.isFinite(m)))
    throw new ValidationError(
      "The image normalisation's std values are positive numbers and its means finite.",
    );
  const plane = u8.length / channels;
  const out = new Float32Array(u8.length);
  const f = Math.fround;
  const table = new Float32Array(256);
  for (let c = 0; c < channels; c++) {
    const m = f(mean[c]);
    const s = f(std[c]);
    for (let v = 0; v < 256; v++) table[v] = f(f(f(v / 255) - m) / s);
    const start = c * plane;
    for (let i = start; i < start + plane; i++) out[i] = table[u8[i]];
  }
  return out;
}
