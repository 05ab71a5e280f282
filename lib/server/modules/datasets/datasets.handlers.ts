import type { RouteHandler } from "@hono/zod-openapi";
import { attachmentDisposition } from "../../http/content-disposition";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import { getDatasetTask as getTask, startFetchFromUrl, startPiiScan } from "./dataset-jobs";
import * as svc from "./datasets";
import type * as r from "./datasets.routes";
import {
  type DatasetFile,
  getDatasetMeta as getMeta,
  openDatasetForViewer,
  openDatasetWithLink,
} from "./download";
import { storageQuota } from "./limits";
import { previewDataset as preview } from "./preview";
import { linkDataset, listLinkedDatasets, unlinkDataset } from "./project-links";
import { readDatasetRows } from "./rows";
import { uploadDataset as upload } from "./upload";
import { getVersion, listVersions, setExplicitSplits } from "./versions";

export const uploadDataset: RouteHandler<typeof r.uploadDataset, AppEnv> = async (c) => {
  const user = currentUser(c);
  const db = c.get("db");
  const length = c.req.header("Content-Length");
  const result = await upload(db, user, {
    body: c.req.raw.body,
    contentType: c.req.header("Content-Type"),
    contentLength: length !== undefined ? Number(length) : undefined,
  });
  const body = {
    dataset: await svc.getDataset(db, user, result.dataset.id),
    version: await getVersion(db, user, result.dataset.id, result.version.id),
    created: result.created,
  };
  return result.created ? c.json(body, 201) : c.json(body, 200);
};

export const createDatasetFromUrl: RouteHandler<typeof r.createDatasetFromUrl, AppEnv> = async (c) => {
  const task = await startFetchFromUrl(c.get("db"), currentUser(c), c.req.valid("json"));
  return c.json({ ...task, task_id: task.id }, 202);
};

export const getDatasetTask: RouteHandler<typeof r.getDatasetTask, AppEnv> = async (c) => {
  return c.json(await getTask(c.get("db"), currentUser(c), c.req.valid("param").task_id), 200);
};

export const browseDatasets: RouteHandler<typeof r.browseDatasets, AppEnv> = async (c) => {
  return c.json(await svc.browseDatasets(c.get("db"), currentUser(c), c.req.valid("query")), 200);
};

export const getDatasetStorageQuota: RouteHandler<typeof r.getDatasetStorageQuota, AppEnv> = async (c) => {
  return c.json(await storageQuota(c.get("db"), currentUser(c)), 200);
};

export const getDataset: RouteHandler<typeof r.getDataset, AppEnv> = async (c) => {
  return c.json(await svc.getDataset(c.get("db"), currentUser(c), c.req.valid("param").dataset_id), 200);
};

export const previewDataset: RouteHandler<typeof r.previewDataset, AppEnv> = async (c) => {
  const q = c.req.valid("query");
  return c.json(
    await preview(c.get("db"), currentUser(c), c.req.valid("param").dataset_id, q.rows, q.version_id),
    200,
  );
};

export const listDatasetRows: RouteHandler<typeof r.listDatasetRows, AppEnv> = async (c) => {
  const page = await readDatasetRows(
    c.get("db"),
    currentUser(c),
    c.req.valid("param").dataset_id,
    c.req.valid("query"),
  );
  return c.json(page, 200);
};

export const updateDataset: RouteHandler<typeof r.updateDataset, AppEnv> = async (c) => {
  const view = await svc.updateDataset(
    c.get("db"),
    currentUser(c),
    c.req.valid("param").dataset_id,
    c.req.valid("json"),
  );
  return c.json(view, 200);
};

export const deleteDataset: RouteHandler<typeof r.deleteDataset, AppEnv> = async (c) => {
  await svc.deleteDataset(c.get("db"), currentUser(c), c.req.valid("param").dataset_id);
  return c.body(null, 204);
};

export const setDatasetRoles: RouteHandler<typeof r.setDatasetRoles, AppEnv> = async (c) => {
  const result = await svc.setRoles(
    c.get("db"),
    currentUser(c),
    c.req.valid("param").dataset_id,
    c.req.valid("json").roles,
  );
  return c.json(result, 200);
};

export const getDatasetMeta: RouteHandler<typeof r.getDatasetMeta, AppEnv> = async (c) => {
  const origin = process.env.PUBLIC_ORIGIN || new URL(c.req.url).origin;
  return c.json(await getMeta(c.get("db"), currentUser(c), c.req.valid("param").dataset_id, origin), 200);
};

export const downloadDataset: RouteHandler<typeof r.downloadDataset, AppEnv> = async (c) => {
  const db = c.get("db");
  const id = c.req.valid("param").dataset_id;
  const q = c.req.valid("query");
  const signed = q.expires !== undefined || q.nonce !== undefined || q.sig !== undefined;
  let file: DatasetFile;
  if (signed) {
    const got = await openDatasetWithLink(db, id, q);
    if ("redirect" in got)
      return c.body(null, 302, { Location: got.redirect, "Cache-Control": "private, no-store" });
    file = got.file;
  } else file = await openDatasetForViewer(db, currentUser(c), id, q.version_id);
  return c.body(file.stream, 200, {
    "Content-Type": file.contentType,
    "Content-Length": String(file.size),
    "Content-Disposition": attachmentDisposition(file.fileName),
    ETag: `"${file.contentHash}"`,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  });
};

export const listDatasetVersions: RouteHandler<typeof r.listDatasetVersions, AppEnv> = async (c) => {
  return c.json(
    await listVersions(c.get("db"), currentUser(c), c.req.valid("param").dataset_id, c.req.valid("query")),
    200,
  );
};

export const getDatasetVersion: RouteHandler<typeof r.getDatasetVersion, AppEnv> = async (c) => {
  const p = c.req.valid("param");
  return c.json(await getVersion(c.get("db"), currentUser(c), p.dataset_id, p.version_id), 200);
};

export const scanDatasetVersionForPii: RouteHandler<typeof r.scanDatasetVersionForPii, AppEnv> = async (
  c,
) => {
  const p = c.req.valid("param");
  const task = await startPiiScan(c.get("db"), currentUser(c), p.dataset_id, p.version_id);
  return c.json({ ...task, task_id: task.id }, 202);
};

export const setDatasetVersionSplits: RouteHandler<typeof r.setDatasetVersionSplits, AppEnv> = async (c) => {
  const p = c.req.valid("param");
  const result = await setExplicitSplits(
    c.get("db"),
    currentUser(c),
    p.dataset_id,
    p.version_id,
    c.req.valid("json").splits,
  );
  return c.json(result, 200);
};

export const linkProjectDataset: RouteHandler<typeof r.linkProjectDataset, AppEnv> = async (c) => {
  const { view, created } = await linkDataset(
    c.get("db"),
    currentUser(c),
    c.req.valid("param").project_id,
    c.req.valid("json").dataset_id,
  );
  return created ? c.json(view, 201) : c.json(view, 200);
};

export const listProjectDatasets: RouteHandler<typeof r.listProjectDatasets, AppEnv> = async (c) => {
  return c.json(
    await listLinkedDatasets(
      c.get("db"),
      currentUser(c),
      c.req.valid("param").project_id,
      c.req.valid("query"),
    ),
    200,
  );
};

export const unlinkProjectDataset: RouteHandler<typeof r.unlinkProjectDataset, AppEnv> = async (c) => {
  const p = c.req.valid("param");
  await unlinkDataset(c.get("db"), currentUser(c), p.project_id, p.dataset_id);
  return c.body(null, 204);
};
