/**
 * Instances of image models. An image model's manifest records the job's image preprocessing (a step
 * `{ kind: "image", channels, height, width, resize, mean, std }`); an instance is
 * `{"<field>": "<base64 of a PNG, JPEG, WebP or GIF>"}` (or the string alone), the base64 also
 * accepted as a `data:` URL. Each picture is decoded with the training decoder (decodeImage) to the
 * Input's C×H×W and normalised per channel (normalizeImage): exactly the tensor training built from
 * the same file. Bad or oversized pictures are a 422 naming the instance.
 */
import { crc32, deflateSync } from "node:zlib";
import { z } from "zod";
import { ValidationError } from "../../errors";
import { decodeImage, normalizeImage } from "../datasets/image-decode";
import type { EncodedBatch, ModelManifest } from "../training/artifact-reader";

/** The largest picture one instance may carry (decoded bytes, before base64). */
export const MAX_IMAGE_INSTANCE_BYTES = 4 * 1024 * 1024;
export const IMAGE_MEDIA_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

const imageStepSchema = z.object({
  kind: z.literal("image").default("image"),
  channels: z.union([z.literal(1), z.literal(3)]),
  height: z.number().int().positive(),
  width: z.number().int().positive(),
  resize: z.enum(["stretch", "crop", "pad"]),
  mean: z.array(z.number()),
  std: z.array(z.number()),
});

export type ImageStep = z.infer<typeof imageStepSchema>;

export interface ImageSpec extends ImageStep {
  /** The instance's field holding the picture. */
  field: string;
}

const specs = new WeakMap<ModelManifest, ImageSpec | null>();

/** The image preprocessing of a model, or null when it does not take pictures. */
export function imageSpecOf(m: ModelManifest): ImageSpec | null {
  if (specs.has(m)) return specs.get(m) ?? null;
  let spec: ImageSpec | null = null;
  // The step among the input's preprocessing; an `image` block beside it is read the same way.
  const blocks = [
    ...m.input.preprocessing.filter((s) => (s as { kind: string }).kind === "image"),
    (m.input as { image?: unknown }).image,
    (m as { image?: unknown }).image,
  ];
  for (const block of blocks) {
    const parsed = block === undefined ? null : imageStepSchema.safeParse(block);
    if (parsed?.success) {
      spec = { ...parsed.data, field: m.input_features[0]?.name ?? "image" };
      break;
    }
  }
  specs.set(m, spec);
  return spec;
}

function instanceError(index: number, field: string, message: string): ValidationError {
  return new ValidationError(`Instance ${index}: ${field}: ${message}`, [
    { path: `inputs.${index}.${field}`, message },
  ]);
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w-]+=[^;,]*)*)(;base64)?,/i;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** The bytes of one instance's picture: base64, a base64 `data:` URL, or the bytes of an uploaded file. */
export function imageBytesOf(spec: ImageSpec, instance: unknown, index: number): Buffer {
  // A file sent as multipart/form-data arrives as its bytes.
  if (Buffer.isBuffer(instance)) return instance;
  const raw =
    typeof instance === "string"
      ? instance
      : instance !== null && typeof instance === "object" && !Array.isArray(instance)
        ? (instance as Record<string, unknown>)[spec.field]
        : undefined;
  if (raw === undefined && instance !== null && typeof instance === "object" && !(spec.field in instance))
    throw instanceError(index, spec.field, `missing “${spec.field}” (a base64 PNG, JPEG or WebP picture).`);
  if (typeof raw !== "string")
    throw instanceError(
      index,
      spec.field,
      `“${spec.field}” must be a base64 string or a data: URL of a picture.`,
    );
  let text = raw;
  const url = DATA_URL.exec(raw);
  if (url) {
    if (!url[3]) throw instanceError(index, spec.field, "the data: URL must be base64-encoded (;base64,).");
    text = raw.slice(url[0].length);
  }
  text = text.replace(/\s+/g, "");
  // Checked before decoding: base64 grows bytes by 4/3.
  if (text.length > Math.ceil((MAX_IMAGE_INSTANCE_BYTES * 4) / 3) + 4)
    throw instanceError(
      index,
      spec.field,
      `the picture is larger than ${MAX_IMAGE_INSTANCE_BYTES / 1024 / 1024} MB.`,
    );
  if (text.length === 0 || !BASE64.test(text)) throw instanceError(index, spec.field, "not valid base64.");
  return Buffer.from(text, text.includes("-") || text.includes("_") ? "base64url" : "base64");
}

/** One picture's bytes → the model's input values (C×H×W floats, normalised). */
export async function imageTensor(spec: ImageSpec, bytes: Buffer, index: number): Promise<Float32Array> {
  if (bytes.length > MAX_IMAGE_INSTANCE_BYTES)
    throw instanceError(
      index,
      spec.field,
      `the picture is larger than ${MAX_IMAGE_INSTANCE_BYTES / 1024 / 1024} MB.`,
    );
  try {
    const pixels = await decodeImage(bytes, spec);
    return normalizeImage(pixels, spec.mean, spec.std);
  } catch (err) {
    if (err instanceof ValidationError) throw instanceError(index, spec.field, err.message);
    throw err;
  }
}

/** Decodes and normalises every instance's picture, in order (one at a time: sharp has its own threads). */
export async function encodeImageInstances(
  spec: ImageSpec,
  instances: readonly unknown[],
): Promise<EncodedBatch> {
  const per = spec.channels * spec.height * spec.width;
  const values = new Float32Array(instances.length * per);
  for (let i = 0; i < instances.length; i++) {
    values.set(await imageTensor(spec, imageBytesOf(spec, instances[i], i), i), i * per);
  }
  return { count: instances.length, values };
}

/** JSON Schema of one image instance. */
export function imageInputJsonSchema(spec: ImageSpec): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      [spec.field]: {
        type: "string",
        contentEncoding: "base64",
        contentMediaType: "image/png",
        description:
          `A picture, base64-encoded or as a data: URL: PNG, JPEG, WebP or GIF (first frame), any size and ` +
          `mode, at most ${MAX_IMAGE_INSTANCE_BYTES / 1024 / 1024} MB. It is decoded to ` +
          `${spec.channels === 1 ? "grayscale" : "RGB"} (transparency on white), resized to ` +
          `${spec.width}×${spec.height} (${spec.resize}), scaled to [0, 1] and normalised per channel ` +
          `with the training images' mean and std, as in training.`,
        "x-media-types": [...IMAGE_MEDIA_TYPES],
      },
    },
    required: [spec.field],
  };
}

/** A valid example instance: a black PNG of the Input's size. */
export function exampleImageInstance(spec: ImageSpec): Record<string, string> {
  return { [spec.field]: blackPng(spec.width, spec.height, spec.channels).toString("base64") };
}

// A tiny PNG encoder so the example needs no asynchronous call.

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

function blackPng(width: number, height: number, channels: 1 | 3): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = channels === 1 ? 0 : 2; // grayscale or RGB
  const rows = Buffer.alloc(height * (1 + width * channels)); // filter byte 0, then zeros
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
