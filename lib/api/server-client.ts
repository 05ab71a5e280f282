import "server-only";
import { headers } from "next/headers";
import { getApp } from "@/lib/server/app";
import { createApiClient } from "./client";

/**
 * The same generated client for server-rendered pages: requests go straight into the API app in this
 * process (no network hop), carrying the visitor's cookie so public and signed-in views agree.
 */
export async function serverApi() {
  const h = await headers();
  const cookie = h.get("cookie");
  return createApiClient({
    baseUrl: "http://layerline.internal",
    fetch: (req) => {
      if (cookie) req.headers.set("cookie", cookie);
      req.headers.set("host", "layerline.internal");
      return Promise.resolve(getApp().fetch(req));
    },
  });
}
