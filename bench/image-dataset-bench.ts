/**
 * Image dataset benchmark (run by hand: `npx tsx bench/image-dataset-bench.ts`). Builds a ZIP of
 * BENCH_IMAGES digit pictures (default 6,000; 28×28 grayscale PNG, or mixed sizes, modes and formats
 * with BENCH_MIXED=1), then times, in the same run: profiling it as an upload does (every picture
 * decoded, thumbnails of the samples), listing it (central directory only), streaming every picture
 * out of it, and streaming + decodeImage to 1×28×28 one at a time. Figures are printed, not asserted.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { decodeImage } from "../lib/server/modules/datasets/image-decode";
import { listImageZip, readImageZip } from "../lib/server/modules/datasets/image-zip";
import { profileImageZip } from "../lib/server/modules/datasets/profile-images";
import { buildImageZip } from "../tests/fixtures/image-zip";

const IMAGES = Number(process.env.BENCH_IMAGES ?? 6000);
const mixed = process.env.BENCH_MIXED === "1";
const perClass = Math.ceil(IMAGES / 10);
const t0 = performance.now();
const { zip, entries } = await buildImageZip({ perClass, mixed });
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "layerline-image-bench-")), "digits.zip");
fs.writeFileSync(file, zip);
console.log(
  `${entries.length.toLocaleString("en")} pictures (${mixed ? "mixed sizes, modes and formats" : "28×28 grayscale PNG"}), ` +
    `ZIP ${(zip.length / 1024 / 1024).toFixed(1)} MB, built in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const out = await fn();
  const s = (performance.now() - start) / 1000;
  console.log(
    `  ${label.padEnd(38)}: ${s.toFixed(2)} s, ${Math.round(entries.length / s).toLocaleString("en")} pictures/s`,
  );
  return out;
}

const profiled = await timed("profile (upload)", () => profileImageZip(file));
const corrupt = profiled.profile.images?.corrupt ?? [];
await timed("list (central directory)", () => listImageZip(file, corrupt));
await timed("stream every picture", async () => {
  let bytes = 0;
  for await (const item of readImageZip(file, undefined, corrupt)) bytes += item.bytes.length;
  return bytes;
});
await timed("stream + decodeImage 1×28×28, one at a time", async () => {
  const target = { channels: 1 as const, height: 28, width: 28, resize: "stretch" as const };
  for await (const item of readImageZip(file, undefined, corrupt)) await decodeImage(item.bytes, target);
});
console.log(`  (machine load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`);
fs.rmSync(path.dirname(file), { recursive: true, force: true });
