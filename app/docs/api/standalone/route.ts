import { readFile } from "node:fs/promises";
import path from "node:path";

export const dynamic = "force-static";

/** Scalar's browser bundle, from node_modules (never a CDN). */
export async function GET() {
  const file = path.join(process.cwd(), "node_modules/@scalar/api-reference/dist/browser/standalone.js");
  return new Response(await readFile(file), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
