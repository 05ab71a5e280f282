import type { DatasetProfile, DatasetSchemaInfo } from "../../db/schema/datasets";
import { ValidationError } from "../../errors";
import type { DetectedFormat } from "./detect-format";
import { InvalidImageZipError, profileImageZip } from "./profile-images";
import { profileTable, UnreadableFileError } from "./profile-table";
import { InvalidTextError, profileText } from "./profile-text";

/**
 * Profiles a dataset file once, when its version is created; the result is stored with the version
 * and served by the preview route as is. Files that cannot be read are a 422.
 */
export interface ProfiledFile {
  schema: DatasetSchemaInfo;
  profile: DatasetProfile;
  /** Rows of each split given by the file itself (an image ZIP's train/, validation/, test/ folders). */
  splits?: { train: number[]; validation: number[]; test: number[] };
}

function invalid(detail: string): ValidationError {
  return new ValidationError(detail, [{ path: "file", message: detail }]);
}

export async function profileFile(file: string, detected: DetectedFormat): Promise<ProfiledFile> {
  try {
    switch (detected.format) {
      case "csv":
      case "tsv":
      case "jsonl":
      case "json":
      case "parquet": {
        const r = await profileTable({ format: detected.format, file, dialect: detected.dialect });
        return {
          schema: {
            format: detected.format,
            columns: r.columns,
            ...(r.source.dialect ? { dialect: r.source.dialect } : {}),
          },
          profile: r.profile,
        };
      }
      case "image_zip": {
        const r = await profileImageZip(file);
        return {
          schema: { format: "image_zip", columns: r.columns, classes: r.classes },
          profile: r.profile,
          ...(r.splits ? { splits: r.splits } : {}),
        };
      }
      case "text": {
        const r = await profileText(file);
        return { schema: { format: "text", columns: r.columns }, profile: r.profile };
      }
      default:
        throw invalid("Unsupported dataset format.");
    }
  } catch (err) {
    if (err instanceof UnreadableFileError)
      throw invalid(`The ${detected.format.toUpperCase()} file could not be read: ${err.message}`);
    if (err instanceof InvalidImageZipError || err instanceof InvalidTextError) throw invalid(err.message);
    throw err;
  }
}
