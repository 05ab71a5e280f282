/**
 * What a checkpoint upload must look like before it is stored (a managed job's next attempt loads
 * it). Checked on the bytes as they stream in, so junk is refused on its first chunk:
 * - PyTorch: the ZIP archive `torch.save` writes: `PK\x03\x04`, its first entry `<archive>/data.pkl`
 *   (torch writes the pickle first, then the tensors) and an end-of-central-directory record at the
 *   end. A bare pickle, or any other file, is refused. (The loader itself uses weights_only=True.)
 * - TF.js: the JSON document the generated tfjs script writes, `{"format":"layerline-tfjs-checkpoint",…`.
 */
import { ValidationError } from "../../errors";

export type CheckpointFormat = "pytorch" | "tfjs";

const ZIP_LOCAL = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const ZIP_END = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const TFJS_PREFIX = Buffer.from('{"format":"layerline-tfjs-checkpoint"');
const DATA_PKL = /^[^/]+\/data\.pkl$/;
/** The end-of-central-directory record (22 bytes) and the longest comment a ZIP may have. */
const TAIL_BYTES = 22 + 0xffff;

/** The formats a job's checkpoints may have: its runtime's, or either when it is not known. */
export function acceptedFormats(job: {
  runtime: string;
  resolvedRuntime: string | null;
}): CheckpointFormat[] {
  const runtime = job.runtime === "external" ? "external" : (job.resolvedRuntime ?? job.runtime);
  if (runtime === "pytorch") return ["pytorch"];
  if (runtime === "tfjs") return ["tfjs"];
  return ["pytorch", "tfjs"];
}

function refuse(reason: string): ValidationError {
  return new ValidationError(
    `The file is not a checkpoint this job can store: ${reason}. A PyTorch checkpoint is the ZIP archive ` +
      "torch.save writes (first entry <name>/data.pkl); a TF.js checkpoint is the JSON document the " +
      "generated script writes.",
    [{ path: "body", message: reason }],
  );
}

const startsWith = (a: Buffer, prefix: Buffer) =>
  a.subarray(0, prefix.length).equals(prefix.subarray(0, Math.min(a.length, prefix.length)));

export class CheckpointSniffer {
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);
  private format: CheckpointFormat | null = null;

  constructor(private readonly accepted: CheckpointFormat[]) {}

  /** Looks at the next chunk; throws 422 as soon as the bytes cannot be a checkpoint. */
  push(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.format === null) {
      this.head = Buffer.concat([this.head, bytes.subarray(0, 4096)]);
      this.format = this.decide();
    }
    if (this.format === "pytorch") {
      this.tail = Buffer.concat([this.tail, bytes]);
      if (this.tail.length > TAIL_BYTES) this.tail = this.tail.subarray(this.tail.length - TAIL_BYTES);
    }
  }

  /** The format, once every byte has passed; throws 422 when the file ended too soon. */
  finish(): CheckpointFormat {
    if (this.format === null) throw refuse("the file is too short");
    if (this.format === "pytorch" && this.tail.lastIndexOf(ZIP_END) === -1)
      throw refuse("the ZIP archive has no end record (truncated)");
    return this.format;
  }

  /** The sniffer as a pass-through stream. */
  stream(): TransformStream<Uint8Array, Uint8Array> {
    return new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => {
        this.push(chunk);
        controller.enqueue(chunk);
      },
    });
  }

  private decide(): CheckpointFormat | null {
    const h = this.head;
    if (h.length === 0) return null;
    if (h[0] === ZIP_LOCAL[0]) {
      if (!startsWith(h, ZIP_LOCAL)) throw refuse("it is neither a ZIP archive nor a checkpoint document");
      if (!this.accepted.includes("pytorch")) throw refuse("this job's runtime writes TF.js checkpoints");
      if (h.length < 30) return null;
      const nameLength = h.readUInt16LE(26);
      if (h.length < 30 + nameLength) return null;
      const name = h.subarray(30, 30 + nameLength).toString("latin1");
      if (!DATA_PKL.test(name))
        throw refuse("the ZIP archive's first entry is not <name>/data.pkl, as torch.save writes it");
      return "pytorch";
    }
    if (h[0] === TFJS_PREFIX[0]) {
      if (!startsWith(h, TFJS_PREFIX)) throw refuse("the JSON document is not a layerline-tfjs-checkpoint");
      if (!this.accepted.includes("tfjs")) throw refuse("this job's runtime writes PyTorch checkpoints");
      return h.length >= TFJS_PREFIX.length ? "tfjs" : null;
    }
    throw refuse("it is neither a ZIP archive nor a checkpoint document");
  }
}
