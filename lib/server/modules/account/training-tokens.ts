/**
 * Stream tokens (`lst_…`: 5 minutes to open a job's event stream) and upload tokens (`lut_…`: upload
 * events, checkpoints and artifact files to one job until it finishes). Only their SHA-256 is stored;
 * both are bound to one job and registered as credentials of their kind. Uploads to a finished job
 * answer 409 (the ingestion service checks the job's state), so a late retry learns why.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { trainingJobs, trainingTokens } from "../../db/schema";
import { registerCredentialVerifier } from "../../http/credentials";
import { hashSecret, newSecret } from "../../secrets";

export const STREAM_TOKEN_TTL_MS = 5 * 60 * 1000;

/** A stream token for one job's or one deployment's event stream. */
export async function mintStreamToken(db: Db, ownerId: string, subjectId: string) {
  const token = newSecret("lst_");
  const expiresAt = new Date(Date.now() + STREAM_TOKEN_TTL_MS);
  await db.insert(trainingTokens).values({
    tokenHash: hashSecret(token),
    kind: "stream",
    subjectId,
    ownerId,
    expiresAt,
  });
  return { token, expiresAt };
}

export async function mintUploadToken(db: Db, ownerId: string, jobId: string) {
  const token = newSecret("lut_");
  await db.insert(trainingTokens).values({
    tokenHash: hashSecret(token),
    kind: "upload",
    subjectId: jobId,
    ownerId,
    expiresAt: null,
  });
  return { token, expiresAt: null };
}

/** Revokes every upload token of a job (a new attempt gets its own; an orphaned process is cut off). */
export async function revokeUploadTokens(db: Db, jobId: string): Promise<void> {
  await db
    .delete(trainingTokens)
    .where(and(eq(trainingTokens.subjectId, jobId), eq(trainingTokens.kind, "upload")));
}

/**
 * A presented token of its kind, unexpired. A stream token's subject is a job or a deployment (the
 * stream routes check that it is theirs and still exists); an upload token's job must exist.
 */
async function resolveToken(db: Db, secret: string, kind: "stream" | "upload") {
  const where = and(eq(trainingTokens.tokenHash, hashSecret(secret)), eq(trainingTokens.kind, kind));
  const [row] =
    kind === "upload"
      ? await db
          .select({ token: trainingTokens })
          .from(trainingTokens)
          .innerJoin(trainingJobs, eq(trainingJobs.id, trainingTokens.subjectId))
          .where(where)
          .limit(1)
      : await db.select({ token: trainingTokens }).from(trainingTokens).where(where).limit(1);
  if (!row) return null;
  if (row.token.expiresAt && row.token.expiresAt.getTime() <= Date.now()) return null;
  return row.token;
}

registerCredentialVerifier("stream_token", async (c, secret) => {
  const token = await resolveToken(c.get("db"), secret, "stream");
  return token ? { kind: "stream_token", subject: token.subjectId, ownerId: token.ownerId } : null;
});

registerCredentialVerifier("upload_token", async (c, secret) => {
  const token = await resolveToken(c.get("db"), secret, "upload");
  return token ? { kind: "upload_token", subject: token.subjectId, ownerId: token.ownerId } : null;
});
