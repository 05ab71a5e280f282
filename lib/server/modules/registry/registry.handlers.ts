import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { NotFoundError } from "../../errors";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import { declaredLength } from "../training/ingest";
import { followAliasMove } from "./alias-followers";
import * as artifacts from "./artifacts";
import { versionLineage } from "./lineage";
import * as versions from "./model-versions";
import * as models from "./models";
import type * as r from "./registry.routes";
import { findTaskContract, TASK_CONTRACTS, taskContractView } from "./task-contracts";

const uid = (c: Context<AppEnv>) => currentUser(c).id;
const origin = (c: Context<AppEnv>) => process.env.PUBLIC_ORIGIN || new URL(c.req.url).origin;

export const createRegisteredModel: RouteHandler<typeof r.createRegisteredModel, AppEnv> = async (c) => {
  const m = await models.createModel(c.get("db"), uid(c), c.req.valid("json"));
  return c.json(m, 201, { Location: `/api/v1/models/${encodeURIComponent(m.id)}` });
};

export const listRegisteredModels: RouteHandler<typeof r.listRegisteredModels, AppEnv> = async (c) =>
  c.json(await models.listModels(c.get("db"), uid(c)), 200);

export const getRegisteredModel: RouteHandler<typeof r.getRegisteredModel, AppEnv> = async (c) =>
  c.json(await models.getModel(c.get("db"), uid(c), c.req.valid("param").model_id), 200);

export const updateRegisteredModel: RouteHandler<typeof r.updateRegisteredModel, AppEnv> = async (c) =>
  c.json(
    await models.updateModel(c.get("db"), uid(c), c.req.valid("param").model_id, c.req.valid("json")),
    200,
  );

export const deleteRegisteredModel: RouteHandler<typeof r.deleteRegisteredModel, AppEnv> = async (c) => {
  await models.deleteModel(c.get("db"), uid(c), c.req.valid("param").model_id);
  return c.body(null, 204);
};

export const pushModelVersion: RouteHandler<typeof r.pushModelVersion, AppEnv> = async (c) => {
  const v = await versions.pushVersion(
    c.get("db"),
    uid(c),
    c.req.valid("param").model_id,
    c.req.valid("json"),
  );
  return c.json(v, 201, { Location: `/api/v1/model-versions/${encodeURIComponent(v.id)}` });
};

export const listModelVersions: RouteHandler<typeof r.listModelVersions, AppEnv> = async (c) =>
  c.json(await versions.listVersions(c.get("db"), uid(c), c.req.valid("param").model_id), 200);

export const setModelAlias: RouteHandler<typeof r.setModelAlias, AppEnv> = async (c) => {
  const { model_id, alias } = c.req.valid("param");
  const set = await models.setAlias(c.get("db"), uid(c), model_id, alias, c.req.valid("json").version_id);
  // Deployments that follow the alias move with it.
  const updated = await followAliasMove(c.get("db"), uid(c), model_id, alias, set.version_id);
  return c.json({ ...set, deployments_updated: updated }, 200);
};

export const getModelAlias: RouteHandler<typeof r.getModelAlias, AppEnv> = async (c) => {
  const { model_id, alias } = c.req.valid("param");
  return c.json(await models.resolveAlias(c.get("db"), uid(c), model_id, alias), 200);
};

export const deleteModelAlias: RouteHandler<typeof r.deleteModelAlias, AppEnv> = async (c) => {
  const { model_id, alias } = c.req.valid("param");
  await models.deleteAlias(c.get("db"), uid(c), model_id, alias);
  return c.body(null, 204);
};

export const getModelVersion: RouteHandler<typeof r.getModelVersion, AppEnv> = async (c) =>
  c.json(await versions.getVersion(c.get("db"), uid(c), c.req.valid("param").version_id), 200);

export const getModelVersionLineage: RouteHandler<typeof r.getModelVersionLineage, AppEnv> = async (c) =>
  c.json(await versionLineage(c.get("db"), uid(c), c.req.valid("param").version_id), 200);

export const listModelVersionEvaluations: RouteHandler<typeof r.listModelVersionEvaluations, AppEnv> = async (
  c,
) => c.json(await versions.versionEvaluations(c.get("db"), uid(c), c.req.valid("param").version_id), 200);

export const initiateModelArtifact: RouteHandler<typeof r.initiateModelArtifact, AppEnv> = async (c) =>
  c.json(
    await artifacts.initiateArtifact(
      c.get("db"),
      uid(c),
      c.req.valid("param").version_id,
      c.req.valid("json"),
      origin(c),
    ),
    201,
  );

export const uploadModelArtifact: RouteHandler<typeof r.uploadModelArtifact, AppEnv> = async (c) => {
  const { version_id, artifact_id } = c.req.valid("param");
  return c.json(
    await artifacts.receiveUpload(
      c.get("db"),
      version_id,
      artifact_id,
      c.req.valid("query"),
      c.req.raw.body,
      declaredLength(c.req.header("content-length")),
    ),
    200,
  );
};

export const completeModelArtifact: RouteHandler<typeof r.completeModelArtifact, AppEnv> = async (c) => {
  const { version_id, artifact_id } = c.req.valid("param");
  return c.json(await artifacts.completeArtifact(c.get("db"), uid(c), version_id, artifact_id), 200);
};

export const finalizeModelVersion: RouteHandler<typeof r.finalizeModelVersion, AppEnv> = async (c) =>
  c.json(await versions.finalizeVersion(c.get("db"), uid(c), c.req.valid("param").version_id), 200);

export const listModelArtifacts: RouteHandler<typeof r.listModelArtifacts, AppEnv> = async (c) =>
  c.json(await artifacts.listArtifacts(c.get("db"), uid(c), c.req.valid("param").version_id), 200);

export const downloadModelArtifact: RouteHandler<typeof r.downloadModelArtifact, AppEnv> = async (c) => {
  const { version_id, artifact_id } = c.req.valid("param");
  const file = await artifacts.openArtifact(c.get("db"), uid(c), version_id, artifact_id);
  const digest = Buffer.from(file.artifact.sha256, "hex").toString("base64");
  return c.body(file.stream, 200, {
    "Content-Type": file.artifact.contentType,
    "Content-Length": String(file.size),
    "Content-Disposition": `attachment; filename="${file.artifact.name}"`,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
    "Repr-Digest": `sha-256=:${digest}:`,
    ETag: `"${file.artifact.sha256}"`,
  });
};

export const listTaskContracts: RouteHandler<typeof r.listTaskContracts, AppEnv> = async (c) =>
  c.json(TASK_CONTRACTS.map(taskContractView), 200);

export const getTaskContract: RouteHandler<typeof r.getTaskContract, AppEnv> = async (c) => {
  const { key, version } = c.req.valid("param");
  const contract = findTaskContract(key, version);
  if (!contract) throw new NotFoundError(`Task contract ${key} version ${version}`);
  return c.json(taskContractView(contract), 200);
};
