import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * Scalar's browser bundle, from node_modules (never a CDN). The reference page asks for it under
 * its version (`?v=1.46.4`), so browsers may keep it for a year. (Compression is the server's: a
 * body encoded here would be encoded twice.)
 */
export const dynamic = "force-dynamic";

const FILE = "node_modules/@scalar/api-reference/dist/browser/standalone.js";

let bundle: Promise<Buffer> | null = null;

function load(): Promise<Buffer> {
  bundle ??= readFile(path.join(process.cwd(), FILE)).catch((err) => {
    bundle = null;
    throw err;
  });
  return bundle;
}

export async function GET(req: Request) {
  const versioned = new URL(req.url).searchParams.has("v");
  return new Response(new Uint8Array(await load()), {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": versioned ? "public, max-age=31536000, immutable" : "public, max-age=3600",
    },
  });
}
