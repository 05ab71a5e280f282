import type { RouteHandler } from "@hono/zod-openapi";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import * as evaluations from "./evaluations";
import type * as r from "./evaluations.routes";
import { sampleImage } from "./sample-image";

const evaluationPath = (id: string) => `/api/v1/training/evaluations/${encodeURIComponent(id)}`;

export const createEvaluation: RouteHandler<typeof r.createEvaluation, AppEnv> = async (c) => {
  const evaluation = await evaluations.createEvaluation(c.get("db"), currentUser(c).id, c.req.valid("json"));
  return c.json(evaluation, 202, { Location: evaluationPath(evaluation.id) });
};

export const getEvaluation: RouteHandler<typeof r.getEvaluation, AppEnv> = async (c) =>
  c.json(
    await evaluations.getEvaluation(c.get("db"), currentUser(c).id, c.req.valid("param").evaluation_id),
    200,
  );

export const listJobEvaluations: RouteHandler<typeof r.listJobEvaluations, AppEnv> = async (c) =>
  c.json(
    await evaluations.listJobEvaluations(c.get("db"), currentUser(c).id, c.req.valid("param").job_id),
    200,
  );

export const getEvaluationSampleImage: RouteHandler<typeof r.getEvaluationSampleImage, AppEnv> = async (
  c,
) => {
  const { evaluation_id, sample } = c.req.valid("param");
  const png = await sampleImage(c.get("db"), currentUser(c).id, evaluation_id, Number(sample));
  return c.body(new Uint8Array(png), 200, {
    "Content-Type": "image/png",
    "Cache-Control": "private, max-age=3600",
    "X-Content-Type-Options": "nosniff",
  });
};
