import { createRouter } from "../../http/openapi";
import * as h from "./catalog.handlers";
import * as r from "./catalog.routes";

/** The base-model catalog (contract §4.6): curated models pretrained from data shipped in the repo. */
export const catalogRouter = createRouter()
  .openapi(r.listFoundationCatalog, h.listFoundationCatalog)
  .openapi(r.getFoundationCatalogModel, h.getFoundationCatalogModel);
