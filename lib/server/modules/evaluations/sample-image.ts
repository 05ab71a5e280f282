/**
 * The thumbnail of one misclassified picture of an image evaluation (result.samples[n]): read from
 * the evaluated dataset version's ZIP by the path the evaluation recorded, decoded with sharp under
 * the decoder's pixel limit and scaled to fit THUMBNAIL_SIDE, as a PNG. Owner-scoped: another
 * account's evaluation is a 404.
 */
import sharp from "sharp";
import type { Db } from "../../db/client";
import { NotFoundError } from "../../errors";
import { MAX_IMAGE_PIXELS, sniffImageFormat } from "../datasets/image-decode";
import { InvalidImageZipError, imageEntriesOf, openZip, readEntry } from "../datasets/image-zip";
import { resolveVersion } from "../training/prepared-dataset";
import { ownedEvaluation } from "./evaluations";

export const THUMBNAIL_SIDE = 128;

export async function sampleImage(
  db: Db,
  ownerId: string,
  evaluationId: string,
  index: number,
): Promise<Buffer> {
  const row = await ownedEvaluation(db, ownerId, evaluationId);
  const result = row.result;
  const sample = result?.kind === "classification" ? result.samples?.[index] : undefined;
  if (!sample) throw new NotFoundError("Evaluation sample");
  const v = await resolveVersion(db, ownerId, row.datasetId, row.datasetVersionId);
  if (v.schema.format !== "image_zip") throw new NotFoundError("Evaluation sample");
  let bytes: Buffer;
  try {
    const zip = await openZip(v.file);
    try {
      const entry = (await imageEntriesOf(zip)).get(sample.path);
      if (!entry) throw new NotFoundError("Evaluation sample");
      bytes = await readEntry(zip, entry);
    } finally {
      zip.close();
    }
  } catch (err) {
    if (err instanceof InvalidImageZipError) throw new NotFoundError("Evaluation sample");
    throw err;
  }
  // Only picture formats reach sharp (never SVG or PDF, whatever the file is named).
  if (!sniffImageFormat(bytes)) throw new NotFoundError("Evaluation sample");
  try {
    return await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, animated: false })
      .resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: "inside", kernel: "nearest" })
      .png()
      .toBuffer();
  } catch {
    // sharp's own message may name internals: the picture is simply not readable.
    throw new NotFoundError("Evaluation sample");
  }
}
