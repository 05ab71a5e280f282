import { createRouter } from "../../http/openapi";
import * as h from "./hub.handlers";
import * as r from "./hub.routes";

/** The hub (issue 15): static paths before `/hub/models/{model_id}` so they are not read as ids. */
export const hubRouter = createRouter()
  .openapi(r.listHubModels, h.listHubModels)
  .openapi(r.searchHubModels, h.searchHubModels)
  .openapi(r.listStarredHubModels, h.listStarredHubModels)
  .openapi(r.listHubCategories, h.listHubCategories)
  .openapi(r.listFeaturedHubModels, h.listFeaturedHubModels)
  .openapi(r.listTrendingHubModels, h.listTrendingHubModels)
  .openapi(r.createHubModel, h.createHubModel)
  .openapi(r.getHubModel, h.getHubModel)
  .openapi(r.updateHubModel, h.updateHubModel)
  .openapi(r.deleteHubModel, h.deleteHubModel)
  .openapi(r.finalizeHubModel, h.finalizeHubModel)
  .openapi(r.uploadHubFile, h.uploadHubFile)
  .openapi(r.listHubFiles, h.listHubFiles)
  .openapi(r.getHubFileContent, h.getHubFileContent)
  .openapi(r.createHubDownloadLink, h.createHubDownloadLink)
  .openapi(r.downloadAllHubFiles, h.downloadAllHubFiles)
  .openapi(r.starHubModel, h.starHubModel)
  .openapi(r.unstarHubModel, h.unstarHubModel)
  .openapi(r.forkHubModel, h.forkHubModel)
  .openapi(r.listHubReviews, h.listHubReviews)
  .openapi(r.createHubReview, h.createHubReview)
  .openapi(r.listHubVersions, h.listHubVersions)
  .openapi(r.createHubVersion, h.createHubVersion)
  .openapi(r.useHubModelInStudio, h.useHubModelInStudio);
