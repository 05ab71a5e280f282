import path from "node:path";

/** Server configuration read from the environment once. */
export interface ServerConfig {
  dataDir: string;
  databaseUrl: string | undefined;
  /** Secret for HMAC-signed links; generated per data directory when not set. */
  signingSecret: string | undefined;
  rateLimitPerMinute: number;
  publicOrigin: string | undefined;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    dataDir: path.resolve(/* turbopackIgnore: true */ env.DATA_DIR ?? ".data"),
    databaseUrl: env.DATABASE_URL || undefined,
    signingSecret: env.LAYERLINE_SECRET || undefined,
    rateLimitPerMinute: Number(env.RATE_LIMIT_PER_MINUTE ?? 600),
    publicOrigin: env.PUBLIC_ORIGIN || undefined,
  };
}

/**
 * Where a training program started by a worker reaches this service's API (its upload-token routes):
 * LAYERLINE_INTERNAL_URL, else this host's loopback on PORT (3000 by default). Workers on other
 * machines set LAYERLINE_INTERNAL_URL to an address of the API servers.
 */
export function internalApiUrl(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.LAYERLINE_INTERNAL_URL?.trim();
  if (explicit) return explicit.replace(/\/+$/, "");
  return `http://127.0.0.1:${env.PORT || "3000"}`;
}
