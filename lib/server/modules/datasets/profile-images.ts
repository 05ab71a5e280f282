import { open } from "node:fs/promises";
import sharp, { type Sharp } from "sharp";
import type yauzl from "yauzl";
import type { DatasetProfile, ImageProfile, ImageSample, SchemaColumn } from "../../db/schema/datasets";
import { type ImageFacts, probeImage } from "./image-decode";
import {
  classifyImageEntries,
  DamagedEntryError,
  type ImageSplit,
  type ImageZipEntry,
  InvalidImageZipError,
  imageEntriesOf,
  openZip,
  readEntryBytes,
} from "./image-zip";

/**
 * Profiles an image ZIP (layouts in image-zip.ts): class counts, image sizes, formats and channels
 * (sharp metadata), the split folders' counts, small PNG thumbnails of the first samples (taken
 * round-robin across classes) for the preview, and the files that cannot be decoded, listed by name
 * and skipped (what probeImage refuses is corrupt: it decodes as decodeImage, the decoder of training
 * and serving, does).
 */
export { InvalidImageZipError } from "./image-zip";

const SAMPLES = 100;
const THUMBNAIL_PX = 48;
/** More unreadable images than this and the upload is refused (the profile lists every one). */
export const MAX_CORRUPT_IMAGES = 1_000;

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

export interface ProfiledImageZip {
  columns: SchemaColumn[];
  classes: string[];
  profile: DatasetProfile;
  /** With split folders: the rows (indices of the readable images) of each split, else null. */
  splits: Record<ImageSplit, number[]> | null;
}

/** Images being decoded at once while profiling. */
const PROBES_IN_FLIGHT = 8;

export async function profileImageZip(file: string): Promise<ProfiledImageZip> {
  const started = performance.now();
  const zip = await openZip(file);
  try {
    const byName = await imageEntriesOf(zip);
    const { layout, entries } = classifyImageEntries([...byName.keys()]);
    const classes = [...new Set(entries.map((c) => c.label))].sort();
    const groups = classes.map((cls) => entries.filter((c) => c.label === cls));
    const sampled = roundRobin(groups, SAMPLES);

    const readable: ImageZipEntry[] = [];
    const sizes: string[] = [];
    const formats: string[] = [];
    const channels: number[] = [];
    const samples: ImageSample[] = [];
    const corrupt: string[] = [];
    // Images are read in archive order and probed a few at a time (sharp decodes on its own
    // threads); the results are taken in order, so the profile does not depend on timing.
    const inFlight: { img: ImageZipEntry; buf: Buffer; facts: Promise<ImageFacts | null> }[] = [];
    const take = async () => {
      const { img, buf, facts } = inFlight.shift() as (typeof inFlight)[number];
      const meta = await facts;
      if (!meta) {
        corrupt.push(img.path);
        if (corrupt.length > MAX_CORRUPT_IMAGES)
          throw new InvalidImageZipError(
            `More than ${MAX_CORRUPT_IMAGES.toLocaleString("en")} images in the ZIP cannot be read.`,
          );
        return;
      }
      readable.push(img);
      sizes.push(`${meta.width}x${meta.height}`);
      formats.push(meta.format);
      channels.push(meta.channels);
      if (sampled.has(img)) {
        samples.push({
          path: img.path,
          label: img.label,
          width: meta.width,
          height: meta.height,
          thumbnail: await thumbnailDataUrl(buf).catch(() => undefined),
        });
      }
    };
    const handle = await open(file, "r");
    try {
      for (const img of entries) {
        // A damaged entry (bad CRC, bad data) is a corrupt picture like one that does not decode.
        const buf = await readEntryBytes(handle, byName.get(img.path) as yauzl.Entry).catch(
          (err: unknown) => {
            if (err instanceof DamagedEntryError) return null;
            throw err;
          },
        );
        inFlight.push({
          img,
          buf: buf ?? Buffer.alloc(0),
          facts: buf ? probeImage(buf).catch(() => null) : Promise.resolve(null),
        });
        if (inFlight.length >= PROBES_IN_FLIGHT) await take();
      }
      while (inFlight.length > 0) await take();
    } finally {
      // Settle what is left (after an error) before the archive closes.
      await Promise.all(inFlight.map((f) => f.facts));
      await handle.close();
    }
    if (readable.length === 0) throw new InvalidImageZipError("None of the images in the ZIP could be read.");
    const labels = readable.map((e) => e.label);
    const dims = sizes.map((s) => s.split("x").map(Number));
    const splits = layout === "splits" ? splitRows(readable) : null;
    const images: ImageProfile = {
      layout,
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
      skipped: corrupt.length,
      corrupt,
      ...(splits
        ? {
            splits: {
              train: splits.train.length,
              validation: splits.validation.length,
              test: splits.test.length,
            },
          }
        : {}),
    };
    const labelCounts = tally(labels);
    return {
      columns: [
        { name: "image", type: "other", source_type: "IMAGE" },
        { name: "label", type: "string", source_type: "VARCHAR" },
      ],
      classes,
      splits,
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

function splitRows(readable: ImageZipEntry[]): Record<ImageSplit, number[]> {
  const out: Record<ImageSplit, number[]> = { train: [], validation: [], test: [] };
  readable.forEach((e, row) => {
    if (e.split) out[e.split].push(row);
  });
  return out;
}
