import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { attachmentDisposition } from "../../http/content-disposition";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import * as files from "./files";
import type * as r from "./hub.routes";
import * as models from "./models";
import * as search from "./search";
import { verifyHubLink } from "./signed-links";
import * as social from "./social";

/** The signed-in caller's id, or null for a signed-out one (public reads). */
function viewerId(c: Context<AppEnv>): string | null {
  const caller = c.get("caller");
  return caller.kind === "session" || caller.kind === "api_key" ? caller.user.id : null;
}

function attachment(filename: string, type: string) {
  return {
    "Content-Type": type,
    "Content-Disposition": attachmentDisposition(filename),
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  };
}

export const listHubModels: RouteHandler<typeof r.listHubModels, AppEnv> = async (c) =>
  c.json(await search.listModels(c.get("db"), viewerId(c), c.req.valid("query")), 200);

export const searchHubModels: RouteHandler<typeof r.searchHubModels, AppEnv> = async (c) =>
  c.json(await search.listModels(c.get("db"), viewerId(c), c.req.valid("query")), 200);

export const listHubCategories: RouteHandler<typeof r.listHubCategories, AppEnv> = async (c) =>
  c.json(await search.listCategories(c.get("db")), 200);

export const listFeaturedHubModels: RouteHandler<typeof r.listFeaturedHubModels, AppEnv> = async (c) =>
  c.json(await search.listFeatured(c.get("db"), c.req.valid("query")), 200);

export const listTrendingHubModels: RouteHandler<typeof r.listTrendingHubModels, AppEnv> = async (c) =>
  c.json(await search.listTrending(c.get("db"), c.req.valid("query")), 200);

export const listStarredHubModels: RouteHandler<typeof r.listStarredHubModels, AppEnv> = async (c) =>
  c.json(await search.listStarred(c.get("db"), currentUser(c).id, c.req.valid("query")), 200);

export const createHubModel: RouteHandler<typeof r.createHubModel, AppEnv> = async (c) => {
  const m = await models.createModel(c.get("db"), currentUser(c), c.req.valid("json"));
  return c.json(m, 201, { Location: `/api/v1/hub/models/${encodeURIComponent(m.id)}` });
};

export const getHubModel: RouteHandler<typeof r.getHubModel, AppEnv> = async (c) =>
  c.json(await models.getModel(c.get("db"), viewerId(c), c.req.valid("param").model_id), 200);

export const updateHubModel: RouteHandler<typeof r.updateHubModel, AppEnv> = async (c) =>
  c.json(
    await models.updateModel(c.get("db"), currentUser(c), c.req.valid("param").model_id, c.req.valid("json")),
    200,
  );

export const deleteHubModel: RouteHandler<typeof r.deleteHubModel, AppEnv> = async (c) => {
  await models.deleteModel(c.get("db"), currentUser(c).id, c.req.valid("param").model_id);
  return c.body(null, 204);
};

export const finalizeHubModel: RouteHandler<typeof r.finalizeHubModel, AppEnv> = async (c) =>
  c.json(await models.finalizeModel(c.get("db"), currentUser(c).id, c.req.valid("param").model_id), 200);

export const uploadHubFile: RouteHandler<typeof r.uploadHubFile, AppEnv> = async (c) => {
  const length = c.req.header("Content-Length");
  const { file, created } = await files.uploadFile(
    c.get("db"),
    currentUser(c),
    c.req.valid("param").model_id,
    {
      body: c.req.raw.body,
      contentType: c.req.header("Content-Type"),
      contentLength: length !== undefined ? Number(length) : undefined,
      path: c.req.valid("query").path,
    },
  );
  return created ? c.json(file, 201) : c.json(file, 200);
};

export const listHubFiles: RouteHandler<typeof r.listHubFiles, AppEnv> = async (c) =>
  c.json(
    await files.listFilesPage(c.get("db"), viewerId(c), c.req.valid("param").model_id, c.req.valid("query")),
    200,
  );

export const getHubFileContent: RouteHandler<typeof r.getHubFileContent, AppEnv> = async (c) => {
  const { model_id, file_id } = c.req.valid("param");
  const link = verifyHubLink(model_id, file_id, c.req.valid("query"));
  const got = await files.openFileContent(c.get("db"), model_id, file_id, link, {
    range: c.req.header("Range"),
    ifRange: c.req.header("If-Range"),
  });
  if ("redirect" in got)
    return c.body(null, 302, { Location: got.redirect, "Cache-Control": "private, no-store" });
  const headers = {
    ...attachment(files.downloadName(got.file), got.file.contentType),
    "Accept-Ranges": "bytes",
    ETag: `"${got.file.sha256}"`,
  };
  if (got.range)
    return c.body(got.stream, 206, {
      ...headers,
      "Content-Length": String(got.range.end - got.range.start + 1),
      "Content-Range": `bytes ${got.range.start}-${got.range.end}/${got.file.sizeBytes}`,
    });
  return c.body(got.stream, 200, { ...headers, "Content-Length": String(got.file.sizeBytes) });
};

export const createHubDownloadLink: RouteHandler<typeof r.createHubDownloadLink, AppEnv> = async (c) => {
  // The body is optional: without one (or without file_id) the link is for the whole model.
  const body = c.req.valid("json") ?? {};
  const { model_id } = c.req.valid("param");
  return c.json(await files.createDownloadLink(c.get("db"), viewerId(c), model_id, body.file_id), 200);
};

export const downloadAllHubFiles: RouteHandler<typeof r.downloadAllHubFiles, AppEnv> = async (c) => {
  const { model_id } = c.req.valid("param");
  const link = verifyHubLink(model_id, undefined, c.req.valid("query"));
  const zip = await files.openModelZip(c.get("db"), model_id, link);
  return c.body(zip.stream, 200, attachment(zip.filename, "application/zip"));
};

export const starHubModel: RouteHandler<typeof r.starHubModel, AppEnv> = async (c) =>
  c.json(await social.star(c.get("db"), currentUser(c).id, c.req.valid("param").model_id), 200);

export const unstarHubModel: RouteHandler<typeof r.unstarHubModel, AppEnv> = async (c) =>
  c.json(await social.unstar(c.get("db"), currentUser(c).id, c.req.valid("param").model_id), 200);

export const forkHubModel: RouteHandler<typeof r.forkHubModel, AppEnv> = async (c) => {
  const body = c.req.valid("json") ?? {};
  const m = await models.forkModel(c.get("db"), currentUser(c), c.req.valid("param").model_id, body);
  return c.json(m, 201);
};

export const listHubReviews: RouteHandler<typeof r.listHubReviews, AppEnv> = async (c) =>
  c.json(
    await social.listReviews(c.get("db"), viewerId(c), c.req.valid("param").model_id, c.req.valid("query")),
    200,
  );

export const createHubReview: RouteHandler<typeof r.createHubReview, AppEnv> = async (c) =>
  c.json(
    await social.addReview(c.get("db"), currentUser(c), c.req.valid("param").model_id, c.req.valid("json")),
    201,
  );

export const listHubVersions: RouteHandler<typeof r.listHubVersions, AppEnv> = async (c) =>
  c.json(
    await social.listVersions(c.get("db"), viewerId(c), c.req.valid("param").model_id, c.req.valid("query")),
    200,
  );

export const createHubVersion: RouteHandler<typeof r.createHubVersion, AppEnv> = async (c) =>
  c.json(
    await social.addVersion(
      c.get("db"),
      currentUser(c).id,
      c.req.valid("param").model_id,
      c.req.valid("json"),
    ),
    201,
  );

export const useHubModelInStudio: RouteHandler<typeof r.useHubModelInStudio, AppEnv> = async (c) => {
  const project = await social.useInStudio(c.get("db"), currentUser(c).id, c.req.valid("param").model_id);
  return c.json(project, 201, { Location: `/api/v1/projects/${encodeURIComponent(project.id)}` });
};
