import { createHash, timingSafeEqual } from "node:crypto";
import { randomBase62 } from "./ids";

/** SHA-256 of a high-entropy secret (API keys, session tokens): enough, as there is nothing to brute-force. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** A new secret with a kind prefix: `lk_` personal key, `ldk_` deployment key, and so on. */
export function newSecret(prefix: string, length = 40): string {
  return `${prefix}${randomBase62(length)}`;
}
