import { readPresignedTransfers } from "../config";
import { blobStore } from "./blob-stores";

/**
 * When clients are sent to the bucket itself instead of through the API (`BLOB_STORE=s3`, with
 * S3_PRESIGNED_DOWNLOADS / S3_PRESIGNED_UPLOADS on, their default): the decision and the URLs.
 * On the local disk, or with a setting off, the answer is null and the caller streams as before.
 */

/**
 * A presigned download URL lives at most this long: a client follows the redirect at once, S3 checks
 * the expiry when a request starts (not while it streams), and a client resuming with a Range later
 * goes back to its signed link for a new one.
 */
export const PRESIGNED_DOWNLOAD_MAX_SECONDS = 60;

/**
 * Objects a client uploads directly (presigned PUT) land here first; they are checked, then copied
 * into place and deleted. Whatever stays (an upload never completed) is collected by the orphan sweep.
 */
export const STAGING_PREFIX = "staging/";

/** The staging key of one direct upload (`staging/<area>/<id>`). */
export function stagingKey(area: string, id: string): string {
  return `${STAGING_PREFIX}${area}/${id}`;
}

export interface DirectDownload {
  filename: string;
  contentType: string;
  /** When the signed link that grants the download expires: the presigned URL never outlives it. */
  notAfter: Date;
}

/**
 * A URL the client can GET the object from (redirect there), or null: stream it through the API
 * (local disk, S3_PRESIGNED_DOWNLOADS=false, or no such object, whose 404 the streaming path gives).
 */
export async function presignedDownloadUrl(
  key: string,
  opts: DirectDownload,
  now = Date.now(),
): Promise<string | null> {
  const store = blobStore();
  if (store.driver !== "s3" || !readPresignedTransfers().downloads) return null;
  if (!(await store.head(key))) return null;
  const remaining = Math.floor((opts.notAfter.getTime() - now) / 1000);
  return store.presignGet(key, {
    expiresInSeconds: Math.max(1, Math.min(PRESIGNED_DOWNLOAD_MAX_SECONDS, remaining)),
    filename: opts.filename,
    contentType: opts.contentType,
    cacheControl: "private, no-store",
  });
}

/** Whether an upload that asks for it may be sent to the bucket itself (presigned PUT). */
export function directUploadsEnabled(): boolean {
  return blobStore().driver === "s3" && readPresignedTransfers().uploads;
}
