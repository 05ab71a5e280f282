import { createHmac, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { datasetDownloadNonces } from "../../db/schema";
import { DomainError, ForbiddenError, NotFoundError } from "../../errors";
import { constantTimeEqual, hashSecret } from "../../secrets";
import { derivedKey } from "./signing-key";

/**
 * Short-lived, single-use download links (contract §5, §8). `/meta` mints one: a random nonce whose
 * SHA-256 is stored with the dataset, version and expiry, and an HMAC over all of them. A download
 * with the link checks the signature and expiry, then marks the nonce used with one
 * `UPDATE … WHERE used_at IS NULL … RETURNING`: of many concurrent uses exactly one gets the row.
 */
export const LINK_TTL_SECONDS = 5 * 60;

export class LinkGoneError extends DomainError {
  constructor(detail: string) {
    super(410, "Gone", detail);
  }
}

export interface SignedLinkParams {
  version_id: string;
  expires: string;
  nonce: string;
  sig: string;
}

function signature(datasetId: string, versionId: string, expires: number, nonce: string): string {
  return createHmac("sha256", derivedKey("dataset-download"))
    .update(`${datasetId}\n${versionId}\n${expires}\n${nonce}`)
    .digest("base64url");
}

export async function mintDownloadLink(
  db: Db,
  datasetId: string,
  versionId: string,
  now = new Date(),
): Promise<{ query: SignedLinkParams; expiresAt: Date }> {
  const expires = Math.floor(now.getTime() / 1000) + LINK_TTL_SECONDS;
  const expiresAt = new Date(expires * 1000);
  const nonce = randomBytes(24).toString("base64url");
  await db
    .insert(datasetDownloadNonces)
    .values({ nonceHash: hashSecret(nonce), datasetId, versionId, expiresAt });
  // Housekeeping: links expired for a day are of no use to anyone.
  await db
    .delete(datasetDownloadNonces)
    .where(lt(datasetDownloadNonces.expiresAt, new Date(now.getTime() - 86_400_000)));
  return {
    query: {
      version_id: versionId,
      expires: String(expires),
      nonce,
      sig: signature(datasetId, versionId, expires, nonce),
    },
    expiresAt,
  };
}

/** Verifies a signed link and uses it up; returns the version it grants and the link's expiry. */
export async function consumeDownloadLink(
  db: Db,
  datasetId: string,
  params: Partial<SignedLinkParams>,
): Promise<{ versionId: string; expiresAt: Date }> {
  const { version_id: versionId, expires, nonce, sig } = params;
  if (!versionId || !expires || !nonce || !sig) throw new ForbiddenError("The download link is incomplete.");
  const exp = Number(expires);
  if (!Number.isSafeInteger(exp) || !constantTimeEqual(sig, signature(datasetId, versionId, exp, nonce)))
    throw new ForbiddenError("The download link's signature is not valid.");
  if (exp * 1000 <= Date.now())
    throw new LinkGoneError("The download link has expired; get a new one from /meta.");
  const [used] = await db
    .update(datasetDownloadNonces)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(datasetDownloadNonces.nonceHash, hashSecret(nonce)),
        eq(datasetDownloadNonces.datasetId, datasetId),
        eq(datasetDownloadNonces.versionId, versionId),
        isNull(datasetDownloadNonces.usedAt),
        gt(datasetDownloadNonces.expiresAt, sql`now()`),
      ),
    )
    .returning({ versionId: datasetDownloadNonces.versionId });
  if (!used) {
    const [nonceRow] = await db
      .select({ usedAt: datasetDownloadNonces.usedAt })
      .from(datasetDownloadNonces)
      .where(eq(datasetDownloadNonces.nonceHash, hashSecret(nonce)));
    // Nonces go with their dataset: a valid signature without its nonce means the dataset was deleted.
    if (!nonceRow) throw new NotFoundError("Dataset");
    if (nonceRow.usedAt)
      throw new LinkGoneError("The download link has already been used; links are single-use.");
    throw new LinkGoneError("The download link has expired; get a new one from /meta.");
  }
  return { versionId: used.versionId, expiresAt: new Date(exp * 1000) };
}
