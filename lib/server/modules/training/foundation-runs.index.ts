import { createRouter } from "../../http/openapi";
import * as h from "./foundation-runs.handlers";
import * as r from "./foundation-runs.routes";

/** Fine-tuning runs: training jobs that start from a base model (contract §4.6). */
export const foundationRunsRouter = createRouter()
  .openapi(r.createFoundationRun, h.createFoundationRun)
  .openapi(r.getFoundationRun, h.getFoundationRun);
