/**
 * Pictures in the deployment console: whether a deployment's instance schema takes a picture (one
 * base64 string field with an image media type), and the checks made before a picture is sent.
 */

/** What the server accepts per picture (lib/server/modules/serving/image-instances.ts). */
export const MAX_PICTURE_BYTES = 4 * 1024 * 1024;
export const PICTURE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The picture field of an image model's instance schema, else null. */
export function imageFieldOf(schema: Record<string, unknown>): string | null {
  if (schema.type !== "object" || !isRecord(schema.properties)) return null;
  const entries = Object.entries(schema.properties);
  if (entries.length !== 1) return null;
  const [name, prop] = entries[0];
  if (!isRecord(prop) || prop.type !== "string" || prop.contentEncoding !== "base64") return null;
  return typeof prop.contentMediaType === "string" && prop.contentMediaType.startsWith("image/")
    ? name
    : null;
}

/** Why a picture cannot be sent, or null when it can. */
export function pictureProblem(file: { type: string; size: number }): string | null {
  if (!(PICTURE_TYPES as readonly string[]).includes(file.type))
    return "Choose a PNG, JPEG, WebP or GIF picture.";
  if (file.size > MAX_PICTURE_BYTES)
    return `The picture is larger than ${MAX_PICTURE_BYTES / 1024 / 1024} MB.`;
  if (file.size === 0) return "The picture is empty.";
  return null;
}

/** The first picture among dropped or pasted items (files of other kinds are skipped). */
export function firstPicture<T extends { type: string }>(files: Iterable<T>): T | null {
  for (const f of files) if (f.type.startsWith("image/")) return f;
  return null;
}
