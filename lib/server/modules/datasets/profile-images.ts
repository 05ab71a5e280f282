import type { Readable } from "node:stream";
import sharp, { type Metadata, type Sharp } from "sharp";
import yauzl from "yauzl";
import type { DatasetProfile, ImageProfile, ImageSample, SchemaColumn } from "../../db/schema/datasets";

/**
 * Profiles a ZIP of images laid out as one folder per class (`cats/1.png`, `dogs/2.jpg`, optionally all
 * inside one top folder): class counts, image sizes, formats and channels (sharp metadata), and small
 * PNG thumbnails of the first samples (taken round-robin across classes) for the preview.
 */
export const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp|tiff?|avif)$/i;
const MAX_IMAGES = 200_000;
const MAX_IMAGE_BYTES = 50 * 1024 * 1024;
const MAX_TOTAL_IMAGE_BYTES = 4 * 1024 * 1024 * 1024;
const SAMPLES = 100;
const THUMBNAIL_PX = 48;

export class InvalidImageZipError extends Error {}

interface ImageEntry {
  entry: yauzl.Entry;
  path: string;
  label: string;
}

function ignored(name: string): boolean {
  return name.endsWith("/") || name.startsWith("__MACOSX/") || name.split("/").some((p) => p.startsWith("."));
}

async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      throw new InvalidImageZipError("An image in the ZIP is larger than 50 MB.");
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Lists the images of the archive with their class label; throws when the layout is not one folder per class. */
export function classifyEntries(names: string[]): { path: string; label: string }[] {
  const files = names.filter((n) => !ignored(n));
  const images = files.filter((n) => IMAGE_EXTENSIONS.test(n));
  if (images.length === 0)
    throw new InvalidImageZipError("The ZIP contains no images (PNG, JPEG, GIF, WebP, TIFF or AVIF).");
  // One wrapping folder around the class folders is common (zipping the folder itself): drop it.
  const firsts = new Set(images.map((n) => n.split("/")[0]));
  const wrapped = firsts.size === 1 && images.every((n) => n.split("/").length >= 3);
  const out = images.map((n) => {
    const parts = n.split("/");
    const rel = wrapped ? parts.slice(1) : parts;
    if (rel.length < 2)
      throw new InvalidImageZipError("Images must be inside one folder per class (e.g. cats/1.png).");
    return { path: n, label: rel[0] };
  });
  return out;
}

function roundRobin<T>(groups: T[][], n: number): Set<T> {
  const picked = new Set<T>();
  for (let i = 0; picked.size < n; i++) {
    let any = false;
    for (const g of groups) {
      if (i < g.length) {
        any = true;
        picked.add(g[i]);
        if (picked.size >= n) break;
      }
    }
    if (!any) break;
  }
  return picked;
}

function tally<K>(values: K[]): Map<K, number> {
  const m = new Map<K, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}

export async function thumbnailDataUrl(image: Buffer | Sharp): Promise<string> {
  const pipeline = Buffer.isBuffer(image) ? sharp(image) : image;
  const png = await pipeline
    .resize(THUMBNAIL_PX, THUMBNAIL_PX, { fit: "inside", kernel: "nearest" })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString("base64")}`;
}

export async function profileImageZip(
  file: string,
): Promise<{ columns: SchemaColumn[]; classes: string[]; profile: DatasetProfile }> {
  const started = performance.now();
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, strictFileNames: false });
  } catch {
    throw new InvalidImageZipError("The file is not a readable ZIP archive.");
  }
  try {
    const byName = new Map<string, yauzl.Entry>();
    for await (const entry of zip.eachEntry()) {
      if (byName.size >= MAX_IMAGES * 2)
        throw new InvalidImageZipError(`The ZIP has more than ${MAX_IMAGES} images.`);
      if (entry.isEncrypted()) throw new InvalidImageZipError("Encrypted ZIP archives are not supported.");
      byName.set(entry.fileName, entry);
    }
    const classified: ImageEntry[] = classifyEntries([...byName.keys()]).map((c) => ({
      ...c,
      entry: byName.get(c.path) as yauzl.Entry,
    }));
    if (classified.length > MAX_IMAGES)
      throw new InvalidImageZipError(`The ZIP has more than ${MAX_IMAGES} images.`);
    // Entry sizes are checked against what is really inflated (yauzl validates them): no ZIP bombs.
    const inflated = classified.reduce((sum, c) => sum + c.entry.uncompressedSize, 0);
    if (inflated > MAX_TOTAL_IMAGE_BYTES)
      throw new InvalidImageZipError("The images in the ZIP add up to more than 4 GB uncompressed.");
    const classes = [...new Set(classified.map((c) => c.label))].sort();
    const groups = classes.map((cls) => classified.filter((c) => c.label === cls));
    const sampled = roundRobin(groups, SAMPLES);

    const sizes: string[] = [];
    const formats: string[] = [];
    const channels: number[] = [];
    const labels: string[] = [];
    const samples: ImageSample[] = [];
    let skipped = 0;
    for (const img of classified) {
      if (img.entry.uncompressedSize > MAX_IMAGE_BYTES)
        throw new InvalidImageZipError("An image in the ZIP is larger than 50 MB.");
      const buf = await readAll(await zip.openReadStreamPromise(img.entry), MAX_IMAGE_BYTES);
      let meta: Metadata;
      try {
        meta = await sharp(buf).metadata();
      } catch {
        skipped += 1;
        continue;
      }
      if (!meta.width || !meta.height) {
        skipped += 1;
        continue;
      }
      labels.push(img.label);
      sizes.push(`${meta.width}x${meta.height}`);
      formats.push(meta.format ?? "unknown");
      channels.push(meta.channels ?? 0);
      if (sampled.has(img)) {
        samples.push({
          path: img.path,
          label: img.label,
          width: meta.width,
          height: meta.height,
          thumbnail: await thumbnailDataUrl(buf).catch(() => undefined),
        });
      }
    }
    if (labels.length === 0) throw new InvalidImageZipError("None of the images in the ZIP could be read.");
    const dims = sizes.map((s) => s.split("x").map(Number));
    const images: ImageProfile = {
      classes: classes.map((name) => ({ name, count: labels.filter((l) => l === name).length })),
      sizes: [...tally(sizes)]
        .map(([s, count]) => {
          const [width, height] = s.split("x").map(Number);
          return { width, height, count };
        })
        .sort((a, b) => b.count - a.count)
        .slice(0, 20),
      width: { min: Math.min(...dims.map((d) => d[0])), max: Math.max(...dims.map((d) => d[0])) },
      height: { min: Math.min(...dims.map((d) => d[1])), max: Math.max(...dims.map((d) => d[1])) },
      formats: [...tally(formats)].map(([format, count]) => ({ format, count })),
      channels: [...tally(channels)].map(([ch, count]) => ({ channels: ch, count })),
      samples,
      skipped,
    };
    const labelCounts = tally(labels);
    return {
      columns: [
        { name: "image", type: "other", source_type: "IMAGE" },
        { name: "label", type: "string", source_type: "VARCHAR" },
      ],
      classes,
      profile: {
        row_count: labels.length,
        columns: [
          { name: "image", type: "other", count: labels.length, missing: 0, distinct: labels.length },
          {
            name: "label",
            type: "string",
            count: labels.length,
            missing: 0,
            distinct: classes.length,
            top_values: [...labelCounts]
              .map(([value, count]) => ({ value, count }))
              .sort((a, b) => b.count - a.count)
              .slice(0, 10),
          },
        ],
        images,
        duration_ms: Math.round(performance.now() - started),
      },
    };
  } finally {
    zip.close();
  }
}
