import { createRouter } from "../../http/openapi";
import * as h from "./datasets.handlers";
import * as r from "./datasets.routes";

/**
 * Datasets (contract §4.5) and a project's linked datasets (§4.2). Fixed paths (browse, storage/quota,
 * tasks/…, from-url) are registered before /datasets/{dataset_id} so that they are never taken for an id.
 */
export const datasetsRouter = createRouter()
  .openapi(r.uploadDataset, h.uploadDataset)
  .openapi(r.createDatasetFromUrl, h.createDatasetFromUrl)
  .openapi(r.getDatasetTask, h.getDatasetTask)
  .openapi(r.browseDatasets, h.browseDatasets)
  .openapi(r.getDatasetStorageQuota, h.getDatasetStorageQuota)
  .openapi(r.getDataset, h.getDataset)
  .openapi(r.previewDataset, h.previewDataset)
  .openapi(r.listDatasetRows, h.listDatasetRows)
  .openapi(r.updateDataset, h.updateDataset)
  .openapi(r.deleteDataset, h.deleteDataset)
  .openapi(r.setDatasetRoles, h.setDatasetRoles)
  .openapi(r.getDatasetMeta, h.getDatasetMeta)
  .openapi(r.downloadDataset, h.downloadDataset)
  .openapi(r.listDatasetVersions, h.listDatasetVersions)
  .openapi(r.getDatasetVersion, h.getDatasetVersion)
  .openapi(r.scanDatasetVersionForPii, h.scanDatasetVersionForPii)
  .openapi(r.setDatasetVersionSplits, h.setDatasetVersionSplits)
  .openapi(r.linkProjectDataset, h.linkProjectDataset)
  .openapi(r.listProjectDatasets, h.listProjectDatasets)
  .openapi(r.unlinkProjectDataset, h.unlinkProjectDataset);
