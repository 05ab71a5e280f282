import fsp from "node:fs/promises";
import type { DatasetFormat } from "../../db/schema";
import type { CsvDialect } from "../../db/schema/datasets";
import { ValidationError } from "../../errors";
import { withDuckDb } from "./duckdb";
import { sniffCsv } from "./profile-table";

/**
 * Decides a file's format from its content first (magic bytes, JSON Lines, DuckDB's CSV sniffer) and
 * its name second. Unsupported content is a 422: the upload is refused and nothing is kept.
 */
export interface DetectedFormat {
  format: DatasetFormat;
  dialect?: CsvDialect;
}

const HEAD_BYTES = 64 * 1024;

function extensionOf(fileName: string): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(fileName.trim());
  return m ? m[1].toLowerCase() : "";
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await fsp.open(file, "r");
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function startsWith(buf: Buffer, bytes: number[]): boolean {
  return bytes.every((b, i) => buf[i] === b);
}

/** A JSON array whose first element is an object: `[{"a": 1, …}, …]` (whitespace allowed). */
function looksLikeJsonRecords(head: Buffer): boolean {
  return /^\s*\[\s*\{/.test(head.toString("utf8", 0, Math.min(head.length, 4096)));
}

function looksLikeJsonLines(head: Buffer): boolean {
  const text = head.toString("utf8");
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  // The last line of the head may be cut; judge by the complete ones.
  const complete = lines.length > 1 ? lines.slice(0, -1) : lines;
  if (complete.length === 0) return false;
  return complete.slice(0, 20).every((l) => {
    try {
      const v = JSON.parse(l) as unknown;
      return typeof v === "object" && v !== null && !Array.isArray(v);
    } catch {
      return false;
    }
  });
}

const unsupported = (detail: string) => new ValidationError(detail, [{ path: "file", message: detail }]);

export async function detectFormat(file: string, fileName: string): Promise<DetectedFormat> {
  const head = await readHead(file);
  const ext = extensionOf(fileName);
  if (head.length === 0) throw unsupported("The file is empty.");
  if (startsWith(head, [0x50, 0x41, 0x52, 0x31])) return { format: "parquet" }; // "PAR1"
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06]))
    return { format: "image_zip" };
  if (startsWith(head, [0x1f, 0x8b]))
    throw unsupported("Compressed (gzip) files are not supported: upload the uncompressed file, or Parquet.");
  if (head.includes(0))
    throw unsupported(
      "The file looks binary. Supported: CSV, TSV, JSON Lines, a JSON array of records, Parquet, a ZIP of images, plain text.",
    );

  if (ext === "json" || (ext !== "jsonl" && ext !== "ndjson" && looksLikeJsonRecords(head))) {
    if (!looksLikeJsonRecords(head))
      throw unsupported('A .json dataset must be one array of records: [{"column": value, …}, …].');
    return { format: "json" };
  }
  if (
    ext === "jsonl" ||
    ext === "ndjson" ||
    (ext !== "csv" && ext !== "tsv" && ext !== "txt" && looksLikeJsonLines(head))
  ) {
    if (!looksLikeJsonLines(head))
      throw unsupported("The file is not JSON Lines (one JSON object per line).");
    return { format: "jsonl" };
  }
  if (ext === "txt" || ext === "text" || ext === "md") return { format: "text" };

  const sniffed = await withDuckDb((con) => sniffCsv(con, file)).catch(() => null);
  if (!sniffed || sniffed.columns === 0) {
    if (ext === "csv" || ext === "tsv") throw unsupported("The file could not be read as CSV.");
    return { format: "text" };
  }
  if (sniffed.columns === 1 && ext !== "csv" && ext !== "tsv") return { format: "text" };
  return { format: sniffed.dialect.delimiter === "\t" ? "tsv" : "csv", dialect: sniffed.dialect };
}
