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

/** Where stored bytes live (BLOB_STORE): the local disk under DATA_DIR, or an S3-compatible bucket. */
export type BlobStoreConfig = { driver: "local" } | S3BlobStoreConfig;

export interface S3BlobStoreConfig {
  driver: "s3";
  bucket: string;
  region: string;
  /** Unset for AWS itself. */
  endpoint: string | undefined;
  /** Where clients reach the bucket (S3_PUBLIC_ENDPOINT): presigned URLs use it. Unset: `endpoint`. */
  publicEndpoint?: string;
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's default chain (instance role, AWS_PROFILE, web identity …). */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
}

/** A setting that cannot work: the message names the variable and what to do. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Environment variables (process.env, or a plain object in tests). */
export type Env = Readonly<Record<string, string | undefined>>;

function flag(env: Env, name: string, fallback: boolean): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (!value) return fallback;
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw new ConfigError(`${name} must be "true" or "false" (got "${env[name]}").`);
}

/** An http(s) URL setting (S3_ENDPOINT, S3_PUBLIC_ENDPOINT) without trailing slashes; undefined when unset. */
function endpointSetting(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim() || undefined;
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL such as http://127.0.0.1:9000 (got "${raw}").`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ConfigError(`${name} must be an http:// or https:// URL (got "${raw}").`);
  return raw.replace(/\/+$/, "");
}

/**
 * With `BLOB_STORE=s3`, whether clients are sent to the bucket itself with presigned URLs:
 * signed download links redirect there (S3_PRESIGNED_DOWNLOADS), and a registry artifact upload that
 * asks for it gets a presigned PUT (S3_PRESIGNED_UPLOADS). Both default to true; turn them off when
 * clients cannot reach the bucket (nor S3_PUBLIC_ENDPOINT): the bytes then pass through the API.
 */
export function readPresignedTransfers(env: Env = process.env): { downloads: boolean; uploads: boolean } {
  return {
    downloads: flag(env, "S3_PRESIGNED_DOWNLOADS", true),
    uploads: flag(env, "S3_PRESIGNED_UPLOADS", true),
  };
}

/** Reads and checks the object-store settings; throws ConfigError with a clear message. */
export function readBlobStoreConfig(env: Env = process.env): BlobStoreConfig {
  const driver = env.BLOB_STORE?.trim().toLowerCase() || undefined;
  if (driver === undefined && env.S3_BUCKET?.trim())
    throw new ConfigError(
      "S3_BUCKET is set but BLOB_STORE is not: set BLOB_STORE=s3 to store files in the bucket (or BLOB_STORE=local to keep them on this disk).",
    );
  readBlobCacheMaxBytes(env); // checked on both drivers: a value that cannot work stops the start
  if (driver === undefined || driver === "local") return { driver: "local" };
  if (driver !== "s3") throw new ConfigError(`BLOB_STORE must be "local" or "s3" (got "${env.BLOB_STORE}").`);

  const bucket = env.S3_BUCKET?.trim() ?? "";
  if (!bucket) throw new ConfigError("BLOB_STORE=s3 needs S3_BUCKET: the name of an existing bucket.");
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new ConfigError(
      `S3_BUCKET "${bucket}" is not a valid bucket name: 3 to 63 lower-case letters, digits, dots and hyphens.`,
    );

  const endpoint = endpointSetting(env, "S3_ENDPOINT");
  const publicEndpoint = endpointSetting(env, "S3_PUBLIC_ENDPOINT");
  readPresignedTransfers(env); // a value that cannot work stops the start, not a later download

  const region = env.S3_REGION?.trim() || env.AWS_REGION?.trim() || (endpoint ? "us-east-1" : "");
  if (!region) throw new ConfigError("BLOB_STORE=s3 on AWS needs S3_REGION (for example eu-west-1).");

  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim() || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    throw new ConfigError(
      `${accessKeyId ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID"} is missing: set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither (to use the instance's role).`,
    );
  const sessionToken = env.AWS_SESSION_TOKEN?.trim() || undefined;

  return {
    driver: "s3",
    bucket,
    region,
    endpoint,
    ...(publicEndpoint && { publicEndpoint }),
    // Servers of our own (an endpoint) rarely have per-bucket host names; AWS prefers virtual hosts.
    forcePathStyle: flag(env, "S3_FORCE_PATH_STYLE", endpoint !== undefined),
    credentials:
      accessKeyId && secretAccessKey
        ? { accessKeyId, secretAccessKey, ...(sessionToken && { sessionToken }) }
        : undefined,
  };
}

const BYTE_UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  k: 1024,
  kib: 1024,
  kb: 1000,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  mb: 1000 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
  gb: 1000 ** 3,
  t: 1024 ** 4,
  tib: 1024 ** 4,
  tb: 1000 ** 4,
};

/** BLOB_CACHE_MAX_BYTES when unset: 2 GiB. */
export const DEFAULT_BLOB_CACHE_MAX_BYTES = 2 * 1024 ** 3;

/**
 * The bound of the local copies of stored files (BLOB_CACHE_DIR, storage/blob-file-cache.ts):
 * BLOB_CACHE_MAX_BYTES as bytes (`2147483648`) or with a unit (`2GiB`, `500MB`, `1.5G`; K, M, G, T
 * and KiB … TiB are powers of 1024, KB … TB powers of 1000). 0 keeps no copy beyond its use.
 */
export function readBlobCacheMaxBytes(env: Env = process.env): number {
  const raw = env.BLOB_CACHE_MAX_BYTES?.trim();
  if (!raw) return DEFAULT_BLOB_CACHE_MAX_BYTES;
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw);
  const unit = match ? BYTE_UNITS[(match[2] ?? "").toLowerCase()] : undefined;
  const bytes = match && unit !== undefined ? Math.floor(Number(match[1]) * unit) : Number.NaN;
  if (!Number.isSafeInteger(bytes))
    throw new ConfigError(
      `BLOB_CACHE_MAX_BYTES must be a size such as 2147483648, 2GiB or 500MB (got "${env.BLOB_CACHE_MAX_BYTES}").`,
    );
  return bytes;
}
