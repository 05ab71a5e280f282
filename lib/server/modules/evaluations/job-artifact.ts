/** A job's model artifact, loaded for an evaluation exactly as a deployment loads it. */
import path from "node:path";
import type { Db } from "../../db/client";
import type { TrainingJobRow } from "../../db/schema";
import { ConflictError } from "../../errors";
import { checkUntrustedModel } from "../serving/model-probe";
import { type LoadedArtifact, loadArtifact, type ModelManifest } from "../training/artifact-reader";
import { linkBlobToFile } from "../training/blob-files";

/**
 * Copies the artifact files into a temporary directory, checks the model in a limited child process
 * (model-probe.ts: a model that would crash or exhaust this process is refused with its reason) and
 * loads them with artifact-reader.
 */
export async function loadJobArtifact(db: Db, job: TrainingJobRow, dir: string): Promise<LoadedArtifact> {
  const files: Record<string, string> = {};
  for (const f of job.artifactFiles) {
    if (f.name === "manifest.json") continue;
    const file = path.join(dir, path.basename(f.name));
    if (!(await linkBlobToFile(f.blob_key, file)))
      throw new ConflictError(`The artifact file ${f.name} is missing from storage.`);
    files[f.name] = file;
  }
  const source = { manifest: job.artifactManifest as unknown as ModelManifest, files };
  await checkUntrustedModel(source, db);
  return loadArtifact(source);
}
