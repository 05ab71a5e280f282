/**
 * Inference on a deployment (contract §4.8): the deployment's state and current revision come from
 * the database on every request (so pause, delete and key rotation hold across servers); the model
 * is the process's warm copy of that revision (model-cache.ts), called through its micro-batcher.
 */
import type { Db } from "../../db/client";
import type { ServingTarget } from "../../db/schema";
import { DomainError, ForbiddenError, NotFoundError, ValidationError } from "../../errors";
import { imageSpecOf } from "../serving/image-instances";
import {
  exampleInstance,
  inputJsonSchema,
  outputJsonSchema,
  validateInstances,
} from "../serving/instance-schema";
import { withWarmModel } from "../serving/model-cache";
import type { Prediction } from "../training/artifact-reader";
import { servingTarget } from "./deployments";
import { checkRequiredFields, requiredFieldsSchema } from "./inference-fields";

const PAUSED_RETRY_AFTER_S = 60;

class ServiceUnavailableError extends DomainError {
  constructor(detail: string, retryAfterSeconds: number) {
    super(503, "Service unavailable", detail, undefined, { "Retry-After": String(retryAfterSeconds) });
  }
}

/** Who calls an inference route: a deployment key, with the rows read when it was checked. */
export interface DeploymentCaller {
  deploymentId: string;
  serving?: ServingTarget;
}

/** The caller's own deployment, serving: 403 for another deployment's key, 503 while paused. */
async function target(db: Db, caller: DeploymentCaller, deploymentId: string) {
  if (caller.deploymentId !== deploymentId)
    throw new ForbiddenError("This deployment key belongs to another deployment.");
  return servingDeployment(db, deploymentId, undefined, caller.serving);
}

/**
 * The state checks of every inference path (predict, the stream session, /v1): 404 when missing
 * (or, given `ownerId`, another account's), 503 with Retry-After while paused or not ready.
 */
export async function servingDeployment(
  db: Db,
  deploymentId: string,
  ownerId?: string,
  /** The rows read with the caller's key in this request (no second read). */
  prefetched?: ServingTarget,
) {
  const found = prefetched?.d.id === deploymentId ? prefetched : await servingTarget(db, deploymentId);
  if (!found || (ownerId !== undefined && found.d.ownerId !== ownerId)) throw new NotFoundError("Deployment");
  const { d, r } = found;
  if (d.state === "paused")
    throw new ServiceUnavailableError("The deployment is paused; resume it to serve.", PAUSED_RETRY_AFTER_S);
  if (d.state !== "ready" || !r)
    throw new ServiceUnavailableError(`The deployment is ${d.state}.`, PAUSED_RETRY_AFTER_S);
  return { deployment: d, revision: r };
}

export async function predict(
  db: Db,
  caller: DeploymentCaller,
  deploymentId: string,
  instances: readonly unknown[],
): Promise<{ outputs: Prediction[]; revision: number }> {
  const { revision } = await target(db, caller, deploymentId);
  const outputs = await withWarmModel(revision, async (model) => {
    checkRequiredFields(model.manifest, instances);
    validateInstances(model.manifest, instances);
    return model.batcher.predict(instances);
  });
  return { outputs, revision: revision.number };
}

/** predict with pictures sent as files (multipart): only for a model that takes pictures. */
export async function predictPictures(
  db: Db,
  caller: DeploymentCaller,
  deploymentId: string,
  pictures: Buffer[],
): Promise<{ outputs: Prediction[]; revision: number }> {
  const { revision } = await target(db, caller, deploymentId);
  const outputs = await withWarmModel(revision, async (model) => {
    if (!imageSpecOf(model.manifest))
      throw new ValidationError(
        "This deployment's model does not take pictures: send its instances as JSON ({inputs: […]}).",
      );
    return model.batcher.predict(pictures);
  });
  return { outputs, revision: revision.number };
}

export async function inferenceSchema(db: Db, caller: DeploymentCaller, deploymentId: string) {
  const { revision } = await target(db, caller, deploymentId);
  const m = await withWarmModel(revision, async (model) => model.manifest);
  return {
    input_schema: requiredFieldsSchema(m, inputJsonSchema(m)),
    output_schema: outputJsonSchema(m),
    example: { inputs: [exampleInstance(m)] },
    revision: revision.number,
  };
}

/** `ok` once the revision's model is loaded; a paused deployment answers 503. */
export async function inferenceHealth(db: Db, caller: DeploymentCaller, deploymentId: string) {
  const { revision } = await target(db, caller, deploymentId);
  await withWarmModel(revision, async () => undefined);
  return { status: "ok" as const, revision: revision.number };
}
