import { crc32 } from "node:zlib";
import sharp, { type SharpOptions } from "sharp";
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../errors";
import { decodeImage, MAX_IMAGE_PIXELS, normalizeImage, probeImage, sniffImageFormat } from "./image-decode";

/** A raw interleaved image where every pixel has the same value per channel. */
function solid(width: number, height: number, pixel: number[]): Buffer {
  const buf = Buffer.alloc(width * height * pixel.length);
  for (let i = 0; i < width * height; i++)
    for (let c = 0; c < pixel.length; c++) buf[i * pixel.length + c] = pixel[c];
  return buf;
}

function encode(raw: Buffer, width: number, height: number, channels: 1 | 2 | 3 | 4) {
  return sharp(raw, { raw: { width, height, channels } });
}

async function rejection(p: Promise<unknown>): Promise<ValidationError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  return err as ValidationError;
}

describe("decodeImage", () => {
  it("returns C×H×W channels first, rows in order", async () => {
    // 2×1 RGB: a red pixel then a blue one.
    const png = await encode(Buffer.from([255, 0, 0, 0, 0, 255]), 2, 1, 3)
      .png()
      .toBuffer();
    const out = await decodeImage(png, { channels: 3, height: 1, width: 2, resize: "stretch" });
    expect([...out]).toEqual([255, 0, 0, 0, 0, 255]);
  });

  it("converts RGB to grayscale with the BT.601 luma", async () => {
    const png = await encode(solid(4, 4, [200, 100, 50]), 4, 4, 3)
      .png()
      .toBuffer();
    const out = await decodeImage(png, { channels: 1, height: 4, width: 4, resize: "stretch" });
    const luma = Math.round((299 * 200 + 587 * 100 + 114 * 50) / 1000);
    expect(out.length).toBe(16);
    expect(new Set(out)).toEqual(new Set([luma]));
  });

  it("repeats a grayscale image over three channels", async () => {
    const png = await encode(solid(3, 3, [77]), 3, 3, 1)
      .png()
      .toBuffer();
    const out = await decodeImage(png, { channels: 3, height: 3, width: 3, resize: "stretch" });
    expect(out.length).toBe(27);
    expect(new Set(out)).toEqual(new Set([77]));
  });

  it("flattens alpha on white", async () => {
    const transparent = await encode(solid(2, 2, [0, 0, 0, 0]), 2, 2, 4)
      .png()
      .toBuffer();
    const opaque = await encode(solid(2, 2, [10, 20, 30, 255]), 2, 2, 4)
      .png()
      .toBuffer();
    const grayAlpha = await encode(solid(2, 2, [0, 0]), 2, 2, 2)
      .png()
      .toBuffer();
    const t = { channels: 3 as const, height: 2, width: 2, resize: "stretch" as const };
    expect(new Set(await decodeImage(transparent, t))).toEqual(new Set([255]));
    expect([...(await decodeImage(opaque, t))]).toEqual([10, 10, 10, 10, 20, 20, 20, 20, 30, 30, 30, 30]);
    expect(new Set(await decodeImage(grayAlpha, { ...t, channels: 1 }))).toEqual(new Set([255]));
  });

  it("reads palette PNG, JPEG, WebP, GIF (first frame), TIFF and 16-bit PNG alike", async () => {
    const raw = solid(8, 8, [0, 128, 255]);
    const t = { channels: 3 as const, height: 8, width: 8, resize: "stretch" as const };
    const lossless = [
      await encode(raw, 8, 8, 3).png({ palette: true }).toBuffer(),
      await encode(raw, 8, 8, 3).webp({ lossless: true }).toBuffer(),
      await encode(raw, 8, 8, 3).gif().toBuffer(),
      await encode(raw, 8, 8, 3).tiff().toBuffer(),
      await encode(raw, 8, 8, 3).png().toColourspace("rgb16").toBuffer(),
    ];
    for (const bytes of lossless) {
      const out = await decodeImage(bytes, t);
      expect(out.length).toBe(192);
      expect(Math.abs(out[0] - 0)).toBeLessThanOrEqual(2);
      expect(Math.abs(out[64] - 128)).toBeLessThanOrEqual(2);
      expect(Math.abs(out[128] - 255)).toBeLessThanOrEqual(2);
    }
    const jpeg = await decodeImage(await encode(raw, 8, 8, 3).jpeg({ quality: 95 }).toBuffer(), t);
    expect(Math.abs(jpeg[64] - 128)).toBeLessThanOrEqual(8);
  });

  it("takes the first frame of an animated GIF", async () => {
    const frames = Buffer.concat([solid(4, 4, [255, 255, 255]), solid(4, 4, [0, 0, 0])]);
    const gif = await sharp(frames, {
      raw: { width: 4, height: 8, channels: 3, pageHeight: 4 },
    } as SharpOptions)
      .gif()
      .toBuffer();
    expect((await sharp(gif, { pages: -1 }).metadata()).pages).toBe(2);
    const out = await decodeImage(gif, { channels: 1, height: 4, width: 4, resize: "stretch" });
    expect(new Set(out)).toEqual(new Set([255]));
  });

  it("stretches, crops the centre, or pads with black", async () => {
    // 4 wide × 2 high: left half black, right half white.
    const raw = Buffer.from([0, 0, 255, 255, 0, 0, 255, 255]);
    const png = await encode(raw, 4, 2, 1).png().toBuffer();
    const stretch = await decodeImage(png, { channels: 1, height: 4, width: 4, resize: "stretch" });
    expect(stretch.length).toBe(16);
    // Each row keeps black on the left and white on the right.
    for (let r = 0; r < 4; r++) {
      expect(stretch[r * 4]).toBeLessThan(40);
      expect(stretch[r * 4 + 3]).toBeGreaterThan(215);
    }
    // Cropping a 2×2 from the centre keeps one black and one white column.
    const crop = await decodeImage(png, { channels: 1, height: 2, width: 2, resize: "crop" });
    expect(crop[0]).toBeLessThan(40);
    expect(crop[1]).toBeGreaterThan(215);
    // Padding into 4×4: the image fills the middle two rows, black above and below.
    const white = await encode(solid(4, 2, [255]), 4, 2, 1)
      .png()
      .toBuffer();
    const pad = await decodeImage(white, { channels: 1, height: 4, width: 4, resize: "pad" });
    expect([...pad.subarray(0, 4)]).toEqual([0, 0, 0, 0]);
    expect([...pad.subarray(4, 12)]).toEqual(Array(8).fill(255));
    expect([...pad.subarray(12, 16)]).toEqual([0, 0, 0, 0]);
  });

  it("returns a picture already of the target's size pixel for pixel", async () => {
    const noise = Buffer.alloc(20 * 12 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
    const png = await encode(noise, 20, 12, 3).png().toBuffer();
    for (const resize of ["stretch", "crop", "pad"] as const) {
      const out = await decodeImage(png, { channels: 3, height: 12, width: 20, resize });
      const plane = 240;
      for (let i = 0; i < plane; i++)
        for (let c = 0; c < 3; c++) expect(out[c * plane + i]).toBe(noise[i * 3 + c]);
    }
  });

  it("applies the EXIF orientation before sizing", async () => {
    // Stored 6 wide × 4 high, tagged "rotate 90° clockwise": it is a 4 × 6 picture.
    const jpeg = await encode(solid(6, 4, [200, 200, 200]), 6, 4, 3)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const out = await decodeImage(jpeg, { channels: 1, height: 6, width: 4, resize: "pad" });
    // Already of the target's shape once turned: no black padding.
    expect(Math.min(...out)).toBeGreaterThan(150);
  });

  it("gives the same tensor for the same bytes", async () => {
    const raw = Buffer.alloc(30 * 20 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 37) % 256;
    const jpeg = await encode(raw, 30, 20, 3).jpeg().toBuffer();
    const t = { channels: 3 as const, height: 16, width: 16, resize: "crop" as const };
    expect(Buffer.from(await decodeImage(jpeg, t)).equals(Buffer.from(await decodeImage(jpeg, t)))).toBe(
      true,
    );
  });

  it("refuses bytes that are not an image, truncated images, SVG and bad targets with a short reason", async () => {
    const t = { channels: 1 as const, height: 8, width: 8, resize: "stretch" as const };
    const png = await encode(solid(32, 32, [9, 9, 9]), 32, 32, 3)
      .png()
      .toBuffer();
    for (const bytes of [
      Buffer.from("definitely not an image"),
      Buffer.alloc(0),
      png.subarray(0, png.length / 2),
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>',
      ),
    ]) {
      const err = await rejection(decodeImage(bytes, t));
      expect(err.status).toBe(422);
      expect(err.message).not.toMatch(/vips|sharp|\/tmp|\//i);
    }
    await rejection(decodeImage(png, { ...t, channels: 2 as 1 }));
    await rejection(decodeImage(png, { ...t, height: 0 }));
    await rejection(decodeImage(png, { ...t, resize: "zoom" as "crop" }));
  });

  it("refuses a decompression bomb before decoding it", async () => {
    // A tiny PNG whose header claims 100,000 × 100,000 pixels (a real bomb is a few hundred KB).
    const png = Buffer.from(
      await encode(solid(1, 1, [0]), 1, 1, 1)
        .png()
        .toBuffer(),
    );
    png.writeUInt32BE(100_000, 16);
    png.writeUInt32BE(100_000, 20);
    png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
    expect(MAX_IMAGE_PIXELS).toBeLessThan(100_000 * 100_000);
    const err = await rejection(decodeImage(png, { channels: 1, height: 8, width: 8, resize: "stretch" }));
    expect(err.message).toMatch(/more than 50,000,000 pixels/);
  });
});

describe("probeImage", () => {
  it("gives the stored format, size and channels of an image it can decode", async () => {
    const rgba = await encode(solid(5, 3, [1, 2, 3, 4]), 5, 3, 4)
      .png()
      .toBuffer();
    expect(await probeImage(rgba)).toEqual({ format: "png", width: 5, height: 3, channels: 4 });
    const jpeg = await encode(solid(7, 9, [50, 60, 70]), 7, 9, 3)
      .jpeg()
      .toBuffer();
    expect(await probeImage(jpeg)).toEqual({ format: "jpeg", width: 7, height: 9, channels: 3 });
  });

  it("refuses what decodeImage refuses, a truncated image included", async () => {
    const png = await encode(solid(32, 32, [9, 9, 9]), 32, 32, 3)
      .png()
      .toBuffer();
    for (const bytes of [png.subarray(0, png.length / 2), Buffer.from("<svg/>"), Buffer.alloc(0)]) {
      await rejection(probeImage(bytes));
      await rejection(decodeImage(bytes, { channels: 1, height: 2, width: 2, resize: "stretch" }));
    }
  });

  it("tells formats by their signature only", async () => {
    const raw = solid(4, 4, [1, 2, 3]);
    const formats = ["png", "jpeg", "gif", "webp", "tiff", "avif"] as const;
    for (const f of formats) {
      const bytes = await encode(raw, 4, 4, 3).toFormat(f).toBuffer();
      expect(sniffImageFormat(bytes)).toBe(f);
    }
    expect(sniffImageFormat(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageFormat(Buffer.from("%PDF-1.7 and more bytes"))).toBeNull();
  });
});

describe("normalizeImage", () => {
  it("computes (u8/255 - mean[c]) / std[c] per channel in float32", () => {
    const u8 = new Uint8Array([0, 255, 128, 0, 255, 51]);
    const out = normalizeImage(u8, [0.5, 0.2], [0.25, 0.1]);
    const f = Math.fround;
    const expected = [0, 255, 128].map((v) => f(f(f(v / 255) - f(0.5)) / f(0.25)));
    expected.push(...[0, 255, 51].map((v) => f(f(f(v / 255) - f(0.2)) / f(0.1))));
    expect([...out]).toEqual(expected);
    expect(out[0]).toBeCloseTo(-2, 6);
    expect(out[1]).toBeCloseTo(2, 6);
    expect(out[5]).toBeCloseTo(0, 6);
  });

  it("refuses mismatched or non-positive statistics", () => {
    expect(() => normalizeImage(new Uint8Array(6), [0.5], [0.5, 0.5])).toThrow(ValidationError);
    expect(() => normalizeImage(new Uint8Array(5), [0.5, 0.5], [0.5, 0.5])).toThrow(ValidationError);
    expect(() => normalizeImage(new Uint8Array(4), [0.5], [0])).toThrow(ValidationError);
  });
});
