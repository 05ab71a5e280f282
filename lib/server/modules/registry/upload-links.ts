/**
 * Signed upload links for registry artifacts (`artifacts:initiate` hands one out): an HMAC over the
 * version, the artifact and the expiry, with a key derived from the service's signing secret for
 * this purpose only (datasets/signing-key.ts), so a dataset link can never pass as an upload link.
 * The link is the credential of the PUT (like a presigned object-store URL): it is bound to one
 * artifact, reusable until it expires (a failed upload can be retried) and useless once the
 * artifact is complete or its version finalized (the upload service checks the rows).
 */
import { createHmac } from "node:crypto";
import { ForbiddenError } from "../../errors";
import { constantTimeEqual } from "../../secrets";
import { LinkGoneError } from "../datasets/signed-links";
import { derivedKey } from "../datasets/signing-key";

export const UPLOAD_LINK_TTL_SECONDS = 60 * 60;

export interface UploadLinkQuery {
  expires: string;
  sig: string;
}

function signature(versionId: string, artifactId: string, expires: number): string {
  return createHmac("sha256", derivedKey("registry-artifact-upload"))
    .update(`${versionId}\n${artifactId}\n${expires}`)
    .digest("base64url");
}

export function signUploadLink(
  versionId: string,
  artifactId: string,
  now = new Date(),
  ttlSeconds = UPLOAD_LINK_TTL_SECONDS,
): { query: UploadLinkQuery; expiresAt: Date } {
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
  return {
    query: { expires: String(expires), sig: signature(versionId, artifactId, expires) },
    expiresAt: new Date(expires * 1000),
  };
}

/** The upload route's path for an artifact (the query carries the signature). */
export function uploadPath(versionId: string, artifactId: string): string {
  return `/api/v1/model-versions/${encodeURIComponent(versionId)}/artifacts/${encodeURIComponent(artifactId)}/upload`;
}

/** 403 for a missing or wrong signature (any tampered part), 410 once expired. */
export function verifyUploadLink(versionId: string, artifactId: string, q: Partial<UploadLinkQuery>): void {
  const { expires, sig } = q;
  if (!expires || !sig)
    throw new ForbiddenError("The upload link is incomplete: it needs `expires` and `sig`.");
  const exp = Number(expires);
  if (!Number.isSafeInteger(exp) || !constantTimeEqual(sig, signature(versionId, artifactId, exp)))
    throw new ForbiddenError("The upload link's signature is not valid.");
  if (exp * 1000 <= Date.now())
    throw new LinkGoneError("The upload link has expired; call artifacts:initiate again for a new one.");
}
