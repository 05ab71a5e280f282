import { createRouter } from "../../http/openapi";
import * as h from "./registry.handlers";
import * as r from "./registry.routes";

/** The model registry (contract §4.10, issue 15): entries, versions, artifacts, aliases, lineage, task contracts. */
export const registryRouter = createRouter()
  .openapi(r.createRegisteredModel, h.createRegisteredModel)
  .openapi(r.listRegisteredModels, h.listRegisteredModels)
  .openapi(r.getRegisteredModel, h.getRegisteredModel)
  .openapi(r.updateRegisteredModel, h.updateRegisteredModel)
  .openapi(r.deleteRegisteredModel, h.deleteRegisteredModel)
  .openapi(r.pushModelVersion, h.pushModelVersion)
  .openapi(r.listModelVersions, h.listModelVersions)
  .openapi(r.setModelAlias, h.setModelAlias)
  .openapi(r.getModelAlias, h.getModelAlias)
  .openapi(r.deleteModelAlias, h.deleteModelAlias)
  .openapi(r.getModelVersion, h.getModelVersion)
  .openapi(r.getModelVersionLineage, h.getModelVersionLineage)
  .openapi(r.listModelVersionEvaluations, h.listModelVersionEvaluations)
  .openapi(r.initiateModelArtifact, h.initiateModelArtifact)
  .openapi(r.uploadModelArtifact, h.uploadModelArtifact)
  .openapi(r.completeModelArtifact, h.completeModelArtifact)
  .openapi(r.finalizeModelVersion, h.finalizeModelVersion)
  .openapi(r.listModelArtifacts, h.listModelArtifacts)
  .openapi(r.downloadModelArtifact, h.downloadModelArtifact)
  .openapi(r.listTaskContracts, h.listTaskContracts)
  .openapi(r.getTaskContract, h.getTaskContract);
