import { createHmac, randomBytes } from "node:crypto";
import { lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { hubLinkDownloads } from "../../db/schema";
import { DomainError, ForbiddenError } from "../../errors";
import { constantTimeEqual, hashSecret } from "../../secrets";
import { derivedKey } from "../datasets/signing-key";

/**
 * Hub download links (decisions "Hub and registry"): an HMAC, under a key derived from the app's
 * signing secret for this purpose only, over the model, the file (or `*` for the whole model as a
 * ZIP), the expiry, a random nonce and the account that minted it (none when signed out).
 * Reusable for 15 minutes; a link for one file or model opens nothing else. A wrong or tampered
 * signature → 403; an expired link → 410. Every fetch checks again that the model exists and that
 * the account that minted the link may still see it (a model made private, or deleted, is a 404
 * through every link minted by anyone else), and a link counts one download however often it is
 * replayed (its nonce is recorded with the first content fetch).
 */
export const HUB_LINK_TTL_SECONDS = 15 * 60;
const ALL_FILES = "*";

export class HubLinkGoneError extends DomainError {
  constructor(detail: string) {
    super(410, "Gone", detail);
  }
}

function signature(modelId: string, fileId: string, expires: number, nonce: string, viewer: string): string {
  return createHmac("sha256", derivedKey("hub-download"))
    .update(`${modelId}\n${fileId}\n${expires}\n${nonce}\n${viewer}`)
    .digest("base64url");
}

export interface HubSignedLink {
  url: string;
  expires_at: string;
}

/**
 * A signed URL for one file's content, or (without a file) for the model's streamed ZIP, minted by
 * `viewerId` (null when signed out): the link opens what that account may see at the time of a fetch.
 */
export function mintHubLink(
  modelId: string,
  fileId: string | undefined,
  now = Date.now(),
  viewerId: string | null = null,
): HubSignedLink {
  const expires = Math.floor(now / 1000) + HUB_LINK_TTL_SECONDS;
  const nonce = randomBytes(16).toString("base64url");
  const sig = signature(modelId, fileId ?? ALL_FILES, expires, nonce, viewerId ?? "");
  const base = `/api/v1/hub/models/${encodeURIComponent(modelId)}`;
  const path = fileId ? `${base}/files/${encodeURIComponent(fileId)}/content` : `${base}/download-all`;
  const viewer = viewerId ? `&v=${encodeURIComponent(viewerId)}` : "";
  return {
    url: `${path}?expires=${expires}&sig=${sig}&n=${nonce}${viewer}`,
    expires_at: new Date(expires * 1000).toISOString(),
  };
}

/** What a verified link grants: content as `viewerId` may see it, counted once per `nonce`. */
export interface VerifiedHubLink {
  viewerId: string | null;
  nonce: string;
  expiresAt: Date;
}

/** Checks a link's signature (403 when missing or wrong) and then its expiry (410). */
export function verifyHubLink(
  modelId: string,
  fileId: string | undefined,
  params: { expires?: string; sig?: string; n?: string; v?: string },
  now = Date.now(),
): VerifiedHubLink {
  if (!params.expires || !params.sig || !params.n)
    throw new ForbiddenError("A signed link is required: get one from POST /hub/models/{model_id}/download.");
  const exp = Number(params.expires);
  if (
    !/^\d{1,15}$/.test(params.expires) ||
    !constantTimeEqual(params.sig, signature(modelId, fileId ?? ALL_FILES, exp, params.n, params.v ?? ""))
  )
    throw new ForbiddenError("The download link's signature is not valid for this model or file.");
  if (exp * 1000 <= now) throw new HubLinkGoneError("The download link has expired; get a new one.");
  return { viewerId: params.v || null, nonce: params.n, expiresAt: new Date(exp * 1000) };
}

/**
 * Records the link's first content fetch; true only for that one (of concurrent replays exactly one
 * insert wins), so that a replayed link counts one download.
 */
export async function firstFetchOfLink(db: Db, modelId: string, link: VerifiedHubLink): Promise<boolean> {
  const inserted = await db
    .insert(hubLinkDownloads)
    .values({ nonceHash: hashSecret(link.nonce), modelId, expiresAt: link.expiresAt })
    .onConflictDoNothing()
    .returning({ nonceHash: hubLinkDownloads.nonceHash });
  // Housekeeping: a link expired for a day is of no use to anyone.
  if (inserted.length === 1)
    await db
      .delete(hubLinkDownloads)
      .where(lt(hubLinkDownloads.expiresAt, new Date(Date.now() - 86_400_000)));
  return inserted.length === 1;
}
