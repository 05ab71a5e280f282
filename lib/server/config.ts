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
