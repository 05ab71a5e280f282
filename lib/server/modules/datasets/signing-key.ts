import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { readConfig } from "../../config";

/**
 * The key that signs dataset download links: LAYERLINE_SECRET when set (required when several
 * processes serve the API), else a random secret created once in the data directory
 * (`<DATA_DIR>/signing-secret`, mode 0600), or kept in memory when DATA_DIR is `:memory:`. Each use
 * derives its own subkey, so the same secret can sign other kinds of links without confusion.
 */
const state = globalThis as unknown as { __layerlineSigningSecret?: string };

function loadOrCreateSecret(): string {
  const config = readConfig();
  if (config.signingSecret) return config.signingSecret;
  if (process.env.DATA_DIR === ":memory:") return randomBytes(32).toString("base64url");
  const file = path.join(config.dataDir, "signing-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      return fs.readFileSync(file, "utf8").trim(); // another process created it first
    }
  }
}

export function signingSecret(): string {
  state.__layerlineSigningSecret ??= loadOrCreateSecret();
  return state.__layerlineSigningSecret;
}

/** A purpose-specific key derived from the signing secret. */
export function derivedKey(purpose: string): Buffer {
  return createHmac("sha256", signingSecret()).update(`layerline:${purpose}`).digest();
}
