import { createRouter } from "../../http/openapi";
import * as h from "./codegen.handlers";
import * as r from "./codegen.routes";

/** Code generation for a project (contract §4.4). */
export const codegenRouter = createRouter()
  .openapi(r.generateProjectCode, h.generateProjectCode)
  .openapi(r.previewProjectCode, h.previewProjectCode)
  .openapi(r.validateProjectCode, h.validateProjectCode)
  .openapi(r.getCodegenTask, h.getCodegenTask)
  .openapi(r.cancelCodegenTask, h.cancelCodegenTask)
  .openapi(r.downloadProjectCode, h.downloadProjectCode);
