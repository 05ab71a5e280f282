import { createHmac } from "node:crypto";
import { DomainError, ForbiddenError } from "../../errors";
import { constantTimeEqual } from "../../secrets";
import { derivedKey } from "../datasets/signing-key";

/**
 * Hub download links (decisions "Hub and registry"): an HMAC, under a key derived from the app's
 * signing secret for this purpose only, over the model, the file (or `*` for the whole model as a
 * ZIP) and the expiry. Reusable for 15 minutes; a link for one file or model opens nothing else.
 * A wrong or tampered signature → 403; an expired link → 410.
 */
export const HUB_LINK_TTL_SECONDS = 15 * 60;
const ALL_FILES = "*";

export class HubLinkGoneError extends DomainError {
  constructor(detail: string) {
    super(410, "Gone", detail);
  }
}

function signature(modelId: string, fileId: string, expires: number): string {
  return createHmac("sha256", derivedKey("hub-download"))
    .update(`${modelId}\n${fileId}\n${expires}`)
    .digest("base64url");
}

export interface HubSignedLink {
  url: string;
  expires_at: string;
}

/** A signed URL for one file's content, or (without a file) for the model's streamed ZIP. */
export function mintHubLink(modelId: string, fileId: string | undefined, now = Date.now()): HubSignedLink {
  const expires = Math.floor(now / 1000) + HUB_LINK_TTL_SECONDS;
  const sig = signature(modelId, fileId ?? ALL_FILES, expires);
  const base = `/api/v1/hub/models/${encodeURIComponent(modelId)}`;
  const path = fileId ? `${base}/files/${encodeURIComponent(fileId)}/content` : `${base}/download-all`;
  return { url: `${path}?expires=${expires}&sig=${sig}`, expires_at: new Date(expires * 1000).toISOString() };
}

/** Checks a link's signature (403 when missing or wrong) and then its expiry (410). */
export function verifyHubLink(
  modelId: string,
  fileId: string | undefined,
  params: { expires?: string; sig?: string },
  now = Date.now(),
): void {
  if (!params.expires || !params.sig)
    throw new ForbiddenError("A signed link is required: get one from POST /hub/models/{model_id}/download.");
  const exp = Number(params.expires);
  if (
    !/^\d{1,15}$/.test(params.expires) ||
    !constantTimeEqual(params.sig, signature(modelId, fileId ?? ALL_FILES, exp))
  )
    throw new ForbiddenError("The download link's signature is not valid for this model or file.");
  if (exp * 1000 <= now) throw new HubLinkGoneError("The download link has expired; get a new one.");
}
