import { registerCredentialVerifier } from "../../http/credentials";
import { createRouter } from "../../http/openapi";
import { registerRequestLogSink } from "../../http/request-logging";
import { registerAliasFollower } from "../registry/alias-followers";
import { followAliasMove, resolveDeploymentKey } from "./deployments";
import * as h from "./deployments.handlers";
import * as r from "./deployments.routes";
import * as ih from "./inference.handlers";
import * as ir from "./inference.routes";
import * as oh from "./inference-owner.handlers";
import * as or from "./inference-owner.routes";
import * as mh from "./monitoring.handlers";
import * as mr from "./monitoring.routes";
import { callEnded, callStarted, recordRequest } from "./request-log";
import * as sh from "./stream-session.handlers";
import * as sr from "./stream-session.routes";

registerCredentialVerifier("deployment_key", async (c, secret) => {
  const found = await resolveDeploymentKey(c.get("db"), secret);
  return found ? { kind: "deployment_key", ...found } : null;
});

// Deployments that follow a registry alias move with it (the registry knows no deployment).
registerAliasFollower(followAliasMove);

// The calls served for a deployment (inference, OpenAI-compatible) go to its request log; the
// request-logging middleware (http/) knows no service.
registerRequestLogSink({ callStarted, callEnded, record: recordRequest });

/** Deployments (management, personal key or session) and inference (deployment key), issue 14. */
export const deploymentsRouter = createRouter()
  .openapi(r.createDeployment, h.createDeployment)
  .openapi(r.deployModelVersion, h.deployModelVersion)
  .openapi(r.listDeployments, h.listDeployments)
  .openapi(r.getDeployment, h.getDeployment)
  .openapi(r.updateDeployment, h.updateDeployment)
  .openapi(r.deleteDeployment, h.deleteDeployment)
  .openapi(r.rotateDeploymentKey, h.rotateDeploymentKey)
  .openapi(r.pauseDeployment, h.pauseDeployment)
  .openapi(r.resumeDeployment, h.resumeDeployment)
  .openapi(r.listDeploymentRevisions, h.listDeploymentRevisions)
  .openapi(r.getDeploymentHealth, h.getDeploymentHealth)
  .openapi(mr.getDeploymentMetrics, mh.getDeploymentMetrics)
  .openapi(mr.getDeploymentLogs, mh.getDeploymentLogs)
  .openapi(mr.createDeploymentStreamAccessToken, mh.createDeploymentStreamAccessToken)
  .openapi(mr.streamDeployment, mh.streamDeployment)
  .openapi(ir.predict, ih.predict)
  .openapi(ir.batchPredict, ih.batchPredict)
  .openapi(ir.getInferenceSchema, ih.getInferenceSchema)
  .openapi(ir.getInferenceHealth, ih.getInferenceHealth)
  .openapi(sr.streamPredictSession, sh.streamPredictSession)
  .openapi(or.predictAsOwner, oh.predictAsOwner)
  .openapi(or.getInferenceSchemaAsOwner, oh.getInferenceSchemaAsOwner);
