import http from "node:http";
import https from "node:https";
import path from "node:path";
import { ValidationError } from "../../errors";
import type { StoredFile } from "./ingest";
import { storeIncomingFile } from "./ingest";
import type { FileBudget } from "./limits";
import {
  assertLiteralHostAllowed,
  assertUrlAllowed,
  type GuardOptions,
  guardedLookup,
  parseFetchUrl,
  SsrfError,
} from "./ssrf-guard";

/**
 * Downloads a dataset file for POST /datasets/from-url. Redirects are followed by hand (at most 5),
 * each hop checked like the first: http(s) only, and the socket may only connect to an address the
 * SSRF guard allows (checked inside the DNS lookup the socket uses). The body is streamed into the
 * blob store under the same limits as an upload.
 */
export const MAX_REDIRECTS = 5;
const IDLE_TIMEOUT_MS = 30_000;

export class FetchFailedError extends ValidationError {
  constructor(detail: string) {
    super(detail, [{ path: "url", message: detail }]);
  }
}

export interface FetchOptions extends GuardOptions {
  signal?: AbortSignal;
  onProgress?: (received: number, total: number | null) => void;
}

function request(url: URL, opts: FetchOptions): Promise<http.IncomingMessage> {
  assertLiteralHostAllowed(url, opts);
  const mod = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      url,
      {
        method: "GET",
        lookup: guardedLookup(opts),
        headers: {
          "User-Agent": "Layerline-dataset-fetch/1.0",
          Accept: "*/*",
          "Accept-Encoding": "identity",
        },
        signal: opts.signal,
      },
      resolve,
    );
    req.setTimeout(IDLE_TIMEOUT_MS, () =>
      req.destroy(new FetchFailedError("The server did not answer in time.")),
    );
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (err instanceof ValidationError) return reject(err);
      if (err.code === "ESSRF") return reject(new SsrfError(err.message));
      if (err.name === "AbortError") return reject(err);
      reject(new FetchFailedError(`The URL could not be fetched (${err.code ?? err.message}).`));
    });
    req.end();
  });
}

function fileNameFrom(res: http.IncomingMessage, url: URL): string {
  const cd = res.headers["content-disposition"];
  const m = cd ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(cd) : null;
  if (m) {
    try {
      return decodeURIComponent(m[1]);
    } catch {
      return m[1];
    }
  }
  const base = path.posix.basename(decodeURIComponent(url.pathname));
  return base || "dataset";
}

/** Follows up to MAX_REDIRECTS redirects, checking every hop; returns the final 2xx response. */
export async function openGuardedUrl(
  raw: string,
  opts: FetchOptions = {},
): Promise<{ res: http.IncomingMessage; url: URL }> {
  let url = parseFetchUrl(raw);
  for (let hop = 0; ; hop++) {
    const res = await request(url, opts);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      if (hop >= MAX_REDIRECTS)
        throw new FetchFailedError(`Too many redirects (more than ${MAX_REDIRECTS}).`);
      let next: string;
      try {
        next = new URL(res.headers.location, url).toString();
      } catch {
        throw new FetchFailedError("The server redirected to an invalid URL.");
      }
      url = parseFetchUrl(next);
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      throw new FetchFailedError(`The server answered ${status}.`);
    }
    return { res, url };
  }
}

export async function fetchUrlToBlob(
  raw: string,
  budget: FileBudget,
  opts: FetchOptions = {},
): Promise<StoredFile> {
  const { res, url } = await openGuardedUrl(raw, opts);
  const declared = Number(res.headers["content-length"]);
  const total = Number.isFinite(declared) && declared >= 0 ? declared : null;
  try {
    if (total !== null) budget.checkDeclared(total);
  } catch (err) {
    res.destroy();
    throw err;
  }
  return storeIncomingFile(res, fileNameFrom(res, url), budget, (bytes) => opts.onProgress?.(bytes, total));
}

/** The check POST /datasets/from-url runs before accepting: scheme, and where the host resolves to. */
export async function precheckUrl(raw: string, opts: GuardOptions = {}): Promise<URL> {
  const url = parseFetchUrl(raw);
  await assertUrlAllowed(url, opts);
  return url;
}
