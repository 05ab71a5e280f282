import { createRouter } from "../../http/openapi";
import "../account/training-tokens";
import type { ModelFamily } from "../../../ml/dataset-models";
import { registerDatasetSeeder } from "../projects/dataset-seeds";
import { foundationRunsRouter } from "./foundation-runs.index";
import { projectFromDataset } from "./project-from-dataset";
import * as h from "./training.handlers";
import * as r from "./training.routes";

// POST /projects with a dataset_id: the projects module (below this one) asks for a sized model.
registerDatasetSeeder((db, ownerId, datasetId, family) =>
  projectFromDataset(db, ownerId, datasetId, family as ModelFamily | undefined),
);

/** Training jobs, their metrics, logs, checkpoints, artifacts, streams and uploads (contract §4.6). */
export const trainingRouter = createRouter()
  .openapi(r.bulkDeleteTrainingJobs, h.bulkDeleteTrainingJobs)
  .openapi(r.listDatasetFit, h.listDatasetFit)
  .openapi(r.listTrainingRuntimes, h.listTrainingRuntimes)
  .openapi(r.listAllowedStrategies, h.listAllowedStrategies)
  .openapi(r.listTrainingRecipes, h.listTrainingRecipes)
  .openapi(r.estimateTrainingResources, h.estimateTrainingResources)
  .openapi(r.createTrainingJob, h.createTrainingJob)
  .openapi(r.listTrainingJobs, h.listTrainingJobs)
  .openapi(r.getTrainingJob, h.getTrainingJob)
  .openapi(r.cancelTrainingJob, h.cancelTrainingJob)
  .openapi(r.restartTrainingJob, h.restartTrainingJob)
  .openapi(r.getTrainingMetricsSummary, h.getTrainingMetricsSummary)
  .openapi(r.getTrainingMetrics, h.getTrainingMetrics)
  .openapi(r.getTrainingLogs, h.getTrainingLogs)
  .openapi(r.downloadTrainingCode, h.downloadTrainingCode)
  .openapi(r.downloadTrainingDag, h.downloadTrainingDag)
  .openapi(r.listTrainingCheckpoints, h.listTrainingCheckpoints)
  .openapi(r.downloadTrainingCheckpoint, h.downloadTrainingCheckpoint)
  .openapi(r.uploadTrainingCheckpoint, h.uploadTrainingCheckpoint)
  .openapi(r.uploadTrainingArtifactFile, h.uploadTrainingArtifactFile)
  .openapi(r.downloadTrainingArtifactFile, h.downloadTrainingArtifactFile)
  .openapi(r.createTrainingStreamAccessToken, h.createTrainingStreamAccessToken)
  .openapi(r.streamTrainingJob, h.streamTrainingJob)
  .openapi(r.createTrainingUploadToken, h.createTrainingUploadToken)
  .openapi(r.uploadTrainingEvents, h.uploadTrainingEvents)
  .route("/", foundationRunsRouter);
