import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";

/**
 * Scalar's browser bundle, from node_modules (never a CDN). The reference page asks for it under
 * its version (`?v=1.46.4`), so browsers may keep it for a year; it is sent gzipped (3.5 MB → about
 * 1 MB) to browsers that accept it, compressed once per process.
 */
export const dynamic = "force-dynamic";

const FILE = "node_modules/@scalar/api-reference/dist/browser/standalone.js";

let bundle: Promise<{ raw: Buffer; gzipped: Buffer }> | null = null;

function load() {
  bundle ??= (async () => {
    const raw = await readFile(path.join(process.cwd(), FILE));
    return { raw, gzipped: await promisify(gzip)(raw) };
  })().catch((err) => {
    bundle = null;
    throw err;
  });
  return bundle;
}

export async function GET(req: Request) {
  const { raw, gzipped } = await load();
  const versioned = new URL(req.url).searchParams.has("v");
  const headers: Record<string, string> = {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": versioned ? "public, max-age=31536000, immutable" : "public, max-age=3600",
    Vary: "Accept-Encoding",
  };
  if (/\bgzip\b/.test(req.headers.get("accept-encoding") ?? ""))
    return new Response(new Uint8Array(gzipped), { headers: { ...headers, "Content-Encoding": "gzip" } });
  return new Response(new Uint8Array(raw), { headers });
}
