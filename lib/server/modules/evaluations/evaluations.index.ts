import { createRouter } from "../../http/openapi";
import * as h from "./evaluations.handlers";
import * as r from "./evaluations.routes";

/** Evaluations of training jobs' models on dataset splits (issue 13). */
export const evaluationsRouter = createRouter()
  .openapi(r.createEvaluation, h.createEvaluation)
  .openapi(r.getEvaluation, h.getEvaluation)
  .openapi(r.listJobEvaluations, h.listJobEvaluations)
  .openapi(r.getEvaluationSampleImage, h.getEvaluationSampleImage);
