import { Readable } from "node:stream";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { z } from "zod";
import type { Db } from "../../db/client";
import { BadRequestError, DomainError, ValidationError } from "../../errors";
import { blobKey } from "../../storage/blob-store";
import {
  type CommitResult,
  commitStoredFile,
  deleteDatasetFile,
  type StoredFile,
  storeIncomingFile,
} from "./ingest";
import { FileBudget, MULTIPART_OVERHEAD_BYTES } from "./limits";

/**
 * POST /datasets/ — a multipart upload parsed with busboy straight from the request stream: the file
 * part is streamed into the blob store (hashed and counted on the way, never held in memory), the
 * text fields are collected beside it. Limits are enforced from Content-Length before reading and on
 * every chunk while reading; a refused or interrupted upload leaves no file and no row.
 */
export const uploadFieldsSchema = z.object({
  name: z.string().trim().min(1).max(120).optional(),
  description: z.string().max(2000).optional(),
  dataset_id: z.string().min(1).max(64).optional(),
});

export interface UploadRequest {
  body: ReadableStream<Uint8Array> | null;
  contentType: string | undefined;
  contentLength: number | undefined;
}

interface ReceivedForm {
  fields: Record<string, string>;
  stored: StoredFile;
}

function receiveMultipart(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  budget: FileBudget,
): Promise<ReceivedForm> {
  return new Promise<ReceivedForm>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        limits: { fields: 20, fieldSize: 16 * 1024, parts: 40, headerPairs: 100 },
        // Browsers send a file name's UTF-8 bytes as they are (busboy's default reads them as Latin-1).
        defParamCharset: "utf8",
      });
    } catch {
      reject(new BadRequestError("The body must be multipart/form-data with a boundary."));
      return;
    }
    const input = Readable.fromWeb(body as unknown as NodeWebReadableStream<Uint8Array>);
    const fields: Record<string, string> = {};
    let fileStream: Readable | null = null;
    let stored: Promise<StoredFile> | null = null;
    let settled = false;

    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      input.unpipe(parser);
      input.destroy();
      // Stop the file part too: its writer then removes the partial blob. Answer only once it has,
      // so that nothing is left behind by the time the client hears of the failure.
      fileStream?.destroy(err instanceof Error ? err : new Error(String(err)));
      const cleaned = stored
        ? stored.then((s) => deleteDatasetFile(blobKey(s.blob))).catch(() => {})
        : Promise.resolve();
      const patience = new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref());
      void Promise.race([cleaned, patience]).then(() => reject(err));
    };

    parser.on("field", (name, value, info) => {
      if (info.valueTruncated)
        return fail(
          new ValidationError(`The field "${name}" is too long.`, [{ path: name, message: "Too long" }]),
        );
      fields[name] = value;
    });
    parser.on("file", (name, stream, info) => {
      if (name !== "file" || stored) {
        stream.resume(); // other file parts are ignored
        return;
      }
      fileStream = stream;
      stored = storeIncomingFile(stream, info.filename ?? "dataset", budget);
      stored.catch(fail);
    });
    parser.on("fieldsLimit", () => fail(new BadRequestError("Too many form fields.")));
    parser.on("partsLimit", () => fail(new BadRequestError("Too many form parts.")));
    parser.on("error", () => fail(new BadRequestError("The multipart body could not be parsed.")));
    parser.on("close", () => {
      if (settled) return;
      if (!stored)
        return fail(new ValidationError("A file is required.", [{ path: "file", message: "Required" }]));
      stored.then(
        (s) => {
          if (settled) return void deleteDatasetFile(blobKey(s.blob)).catch(() => {});
          settled = true;
          resolve({ fields, stored: s });
        },
        (err) => fail(err),
      );
    });
    input.on("error", (err) =>
      fail(err instanceof DomainError ? err : new BadRequestError("The upload was interrupted.")),
    );
    input.pipe(parser);
  });
}

export async function uploadDataset(
  db: Db,
  user: { id: string; plan: string },
  req: UploadRequest,
): Promise<CommitResult> {
  if (!req.contentType || !/^multipart\/form-data/i.test(req.contentType))
    throw new BadRequestError("The body must be multipart/form-data with a `file` field.");
  if (!req.body) throw new BadRequestError("The request has no body.");
  const budget = await FileBudget.forUser(db, user);
  if (req.contentLength !== undefined && Number.isFinite(req.contentLength))
    budget.checkDeclared(req.contentLength, MULTIPART_OVERHEAD_BYTES);
  const { fields, stored } = await receiveMultipart(req.body, req.contentType, budget);
  const parsed = uploadFieldsSchema.safeParse(fields);
  if (!parsed.success) {
    await deleteDatasetFile(blobKey(stored.blob)).catch(() => {});
    throw new ValidationError(
      "The form fields did not pass validation.",
      parsed.error.issues.map((i) => ({ path: i.path.map(String).join(".") || "form", message: i.message })),
    );
  }
  return commitStoredFile(
    db,
    stored,
    {
      owner: user,
      datasetId: parsed.data.dataset_id,
      name: parsed.data.name,
      description: parsed.data.description,
    },
    budget,
  );
}
