import "server-only";
import { headers } from "next/headers";
import type { App } from "@/lib/server/app";
import { createApiClient } from "./client";

/**
 * The API app of this process: the one the server made before serving any page (scripts/server.ts),
 * read from where getApp keeps it, else loaded and made now (`next dev`, `next start`). Not imported
 * statically: Next bundles its own copy of the whole server for the pages, and loading that copy
 * only to reach the running app cost the first signed-in page after a start about a second.
 */
async function runningApp(): Promise<App> {
  const running = (globalThis as unknown as { __layerlineApp?: App }).__layerlineApp;
  if (running) return running;
  return (await import("@/lib/server/app")).getApp();
}

/**
 * The same generated client for server-rendered pages: requests go straight into the API app in this
 * process (no network hop), carrying the visitor's cookie so public and signed-in views agree.
 */
export async function serverApi() {
  const h = await headers();
  const cookie = h.get("cookie");
  return createApiClient({
    baseUrl: "http://layerline.internal",
    fetch: async (req) => {
      if (cookie) req.headers.set("cookie", cookie);
      req.headers.set("host", "layerline.internal");
      return (await runningApp()).fetch(req);
    },
  });
}
