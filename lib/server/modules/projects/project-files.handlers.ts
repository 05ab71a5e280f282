import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { BadRequestError, ValidationError } from "../../errors";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import type * as r from "./project-files.routes";
import {
  diagramPreview,
  openThumbnail,
  UnsupportedMediaTypeError,
  uploadThumbnail,
} from "./project-thumbnails";
import {
  type DagSource,
  importDagAsProject as importAsProject,
  importDagIntoProject as importInto,
} from "./projects";
import { projectNameSchema } from "./projects.schemas";

interface DagUpload {
  source: DagSource;
  name?: string;
  fileName?: string;
}

/**
 * The DAG document from a JSON body, or from the multipart field `file` (with an optional `name`).
 * The document itself is judged by the DAG parser, so that its problems are reported per node.
 */
async function dagUpload(c: Context<AppEnv>): Promise<DagUpload> {
  const type = c.req.header("Content-Type") ?? "";
  if (/^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i.test(type)) {
    try {
      return { source: { json: await c.req.json() } };
    } catch {
      throw new BadRequestError("The request body is not valid JSON.");
    }
  }
  if (/^multipart\/form-data\s*;/i.test(type)) {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw new BadRequestError("The multipart body could not be parsed.");
    }
    const file = form.file;
    if (!(file instanceof File))
      throw new ValidationError("Upload the DAG document in the multipart field `file`.", [
        { path: "form.file", message: "A file is required" },
      ]);
    let name: string | undefined;
    if (form.name !== undefined) {
      const parsed = projectNameSchema.safeParse(form.name);
      if (!parsed.success)
        throw new ValidationError("The project name is not valid.", [
          { path: "form.name", message: "Use 1 to 120 characters" },
        ]);
      name = parsed.data;
    }
    return { source: { text: await file.text() }, name, fileName: file.name };
  }
  if (!type)
    throw new BadRequestError("Send the DAG document as a JSON body or as the multipart field `file`.");
  throw new UnsupportedMediaTypeError("Send the DAG document as application/json or multipart/form-data.");
}

export const importDagAsProject: RouteHandler<typeof r.importDagAsProject, AppEnv> = async (c) => {
  const upload = await dagUpload(c);
  const project = await importAsProject(c.get("db"), currentUser(c).id, upload.source, {
    name: upload.name,
    fileName: upload.fileName,
  });
  return c.json(project, 201);
};

export const importDagIntoProject: RouteHandler<typeof r.importDagIntoProject, AppEnv> = async (c) => {
  const upload = await dagUpload(c);
  const project = await importInto(
    c.get("db"),
    currentUser(c).id,
    c.req.valid("param").project_id,
    upload.source,
  );
  return c.json(project, 200);
};

export const uploadProjectThumbnail: RouteHandler<typeof r.uploadProjectThumbnail, AppEnv> = async (c) => {
  const { file } = c.req.valid("form");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const stored = await uploadThumbnail(
    c.get("db"),
    currentUser(c).id,
    c.req.valid("param").project_id,
    bytes,
  );
  return c.json(stored, 200);
};

export const getProjectThumbnail: RouteHandler<typeof r.getProjectThumbnail, AppEnv> = async (c) => {
  const image = await openThumbnail(c.get("db"), currentUser(c).id, c.req.valid("param").project_id);
  return c.body(image.stream, 200, {
    "Content-Type": image.contentType,
    "Content-Length": String(image.size),
    "Cache-Control": "private, no-cache",
    "X-Content-Type-Options": "nosniff",
  });
};

export const getProjectPreview: RouteHandler<typeof r.getProjectPreview, AppEnv> = async (c) => {
  const preview = await diagramPreview(c.get("db"), currentUser(c).id, c.req.valid("param").project_id);
  const headers = {
    ETag: preview.etag,
    "Cache-Control": "private, no-cache",
    // An image, never a document: nothing in it may run or load, even opened on its own.
    "Content-Security-Policy": "default-src 'none'",
    "X-Content-Type-Options": "nosniff",
  };
  const known = c.req.header("If-None-Match");
  if (known?.split(",").some((tag) => tag.trim() === preview.etag)) return c.body(null, 304, headers);
  return c.body(preview.svg, 200, { ...headers, "Content-Type": "image/svg+xml; charset=utf-8" });
};
