import type { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { graphPreviewSvg } from "../../../editor/graph-preview-svg";
import type { Db } from "../../db/client";
import { projects } from "../../db/schema";
import { DomainError, NotFoundError, PayloadTooLargeError, ValidationError } from "../../errors";
import { blobStore } from "../../storage/blob-stores";
import { findOwnedProject } from "./projects";
import type { thumbnailSchema } from "./projects.schemas";

export const MAX_THUMBNAIL_BYTES = 2 * 1024 * 1024;

export type ThumbnailType = "image/png" | "image/jpeg" | "image/webp";

export class UnsupportedMediaTypeError extends DomainError {
  constructor(detail: string) {
    super(415, "Unsupported media type", detail);
  }
}

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
  return bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
}

const ascii = (s: string) => [...s].map((ch) => ch.charCodeAt(0));

/** The image type from the file's magic bytes (the declared Content-Type is not trusted). */
export function sniffImageType(bytes: Uint8Array): ThumbnailType | null {
  // PNG: 8-byte signature, then the IHDR chunk (length, "IHDR").
  if (
    startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) &&
    startsWith(bytes, ascii("IHDR"), 12)
  )
    return "image/png";
  // JPEG: SOI marker followed by another marker.
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  // WebP: RIFF container with the WEBP form type.
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return null;
}

export type ThumbnailView = z.infer<typeof thumbnailSchema>;

function keyFor(projectId: string): string {
  return `thumbnails/${projectId}`;
}

/** Stores (or replaces) a project's thumbnail: PNG, JPEG or WebP by content, at most 2 MB. */
export async function uploadThumbnail(
  db: Db,
  ownerId: string,
  projectId: string,
  bytes: Uint8Array,
): Promise<ThumbnailView> {
  await findOwnedProject(db, ownerId, projectId);
  if (bytes.byteLength > MAX_THUMBNAIL_BYTES)
    throw new PayloadTooLargeError("A thumbnail can be at most 2 MB.");
  if (bytes.byteLength === 0)
    throw new ValidationError("The file is empty.", [{ path: "file", message: "Empty file" }]);
  const type = sniffImageType(bytes);
  if (!type) throw new UnsupportedMediaTypeError("A thumbnail must be a PNG, JPEG or WebP image.");
  const key = keyFor(projectId);
  const { size } = await blobStore().put(key, bytes, { maxBytes: MAX_THUMBNAIL_BYTES, contentType: type });
  const rows = await db
    .update(projects)
    .set({ thumbnailKey: key, thumbnailMime: type, thumbnailSize: size })
    .where(and(eq(projects.id, projectId), eq(projects.ownerId, ownerId)))
    .returning({ id: projects.id });
  if (rows.length === 0) {
    await blobStore().delete(key); // deleted meanwhile
    throw new NotFoundError("Project");
  }
  return { url: `/api/v1/projects/${projectId}/thumbnail`, content_type: type, size };
}

export interface OpenedThumbnail {
  contentType: string;
  size: number;
  stream: ReadableStream<Uint8Array>;
}

export async function openThumbnail(db: Db, ownerId: string, projectId: string): Promise<OpenedThumbnail> {
  const project = await findOwnedProject(db, ownerId, projectId);
  if (!project.thumbnailKey || !project.thumbnailMime) throw new NotFoundError("Thumbnail");
  const blob = await blobStore().get(project.thumbnailKey);
  if (!blob) throw new NotFoundError("Thumbnail");
  return { contentType: project.thumbnailMime, size: blob.size, stream: blob.stream };
}

/** Bumped when the drawing changes, so browsers do not keep an older rendering of the same diagram. */
const PREVIEW_STYLE = 1;

export interface DiagramPreview {
  svg: string;
  /** Changes whenever the diagram (or the drawing style) does. */
  etag: string;
}

/**
 * The diagram drawn by the server (lib/editor/graph-preview-svg): what the projects list shows for a
 * project that has no uploaded thumbnail yet. An empty diagram is an empty image.
 */
export async function diagramPreview(db: Db, ownerId: string, projectId: string): Promise<DiagramPreview> {
  const project = await findOwnedProject(db, ownerId, projectId);
  return {
    svg: graphPreviewSvg(project.graph),
    etag: `W/"${PREVIEW_STYLE}-${project.updatedAt.getTime()}"`,
  };
}
