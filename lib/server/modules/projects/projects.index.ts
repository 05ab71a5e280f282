import { createRouter } from "../../http/openapi";
import * as fh from "./project-files.handlers";
import * as fr from "./project-files.routes";
import * as h from "./projects.handlers";
import * as r from "./projects.routes";
import * as ph from "./public-projects.handlers";
import * as pr from "./public-projects.routes";
import * as sh from "./shares.handlers";
import * as sr from "./shares.routes";
import * as vh from "./versions.handlers";
import * as vr from "./versions.routes";

/** Projects (contract §4.2, without linked datasets) and architecture versions (§4.3). */
export const projectsRouter = createRouter()
  .openapi(r.createProject, h.createProject)
  .openapi(r.listProjects, h.listProjects)
  .openapi(r.bulkDeleteProjects, h.bulkDeleteProjects)
  .openapi(fr.importDagAsProject, fh.importDagAsProject)
  .openapi(r.getProject, h.getProject)
  .openapi(r.updateProject, h.updateProject)
  .openapi(r.deleteProject, h.deleteProject)
  .openapi(r.duplicateProject, h.duplicateProject)
  .openapi(fr.importDagIntoProject, fh.importDagIntoProject)
  .openapi(fr.uploadProjectThumbnail, fh.uploadProjectThumbnail)
  .openapi(fr.getProjectThumbnail, fh.getProjectThumbnail)
  .openapi(fr.getProjectPreview, fh.getProjectPreview)
  .openapi(sr.createProjectShare, sh.createProjectShare)
  .openapi(sr.listProjectShares, sh.listProjectShares)
  .openapi(sr.revokeProjectShare, sh.revokeProjectShare)
  .openapi(sr.getSharedProject, sh.getSharedProject)
  .openapi(sr.importSharedProject, sh.importSharedProject)
  .openapi(pr.listPublicProjects, ph.listPublicProjects)
  .openapi(pr.getPublicProject, ph.getPublicProject)
  .openapi(pr.importPublicProject, ph.importPublicProject)
  .openapi(vr.saveProjectVersion, vh.saveProjectVersion)
  .openapi(vr.listProjectVersions, vh.listProjectVersions)
  // Before versions/{version_id}, so that "compare" is not taken for an id.
  .openapi(vr.compareProjectVersions, vh.compareProjectVersions)
  .openapi(vr.getProjectVersion, vh.getProjectVersion)
  .openapi(vr.restoreProjectVersion, vh.restoreProjectVersion)
  .openapi(vr.deleteProjectVersion, vh.deleteProjectVersion)
  .openapi(vr.getLatestProjectVersion, vh.getLatestProjectVersion);
