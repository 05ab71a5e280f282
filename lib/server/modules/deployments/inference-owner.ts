/**
 * The owner's own calls to a deployment (issue 25): the console's try-it with the web session, or
 * the owner's personal key, without the one-time deployment key. Only the deployment's owner gets
 * through (another account: 404, never revealing it); the call then counts like a keyed one: in the
 * deployment's request log and against the deployment's own rate limit (the bucket its key spends,
 * http/credentials.ts), besides the caller's own limit that the credential middleware already spent.
 */
import type { Context } from "hono";
import { NotFoundError } from "../../errors";
import { currentUser } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import { consumeRateLimit, effectiveLimit } from "../../http/rate-limit";
import { planOf } from "../../plans";
import { servingTarget } from "./deployments";
import type { DeploymentCaller } from "./inference";

/** The deployment key's rate (credentials.ts gives every deployment key the team plan's limit). */
const DEPLOYMENT_RATE = () => effectiveLimit(planOf("team").limits.requests_per_minute);

/**
 * Checks that the signed-in caller owns the deployment and counts the call against it; returns a
 * caller the inference service serves as it serves the deployment's key (state checks follow there).
 */
export async function ownerCaller(c: Context<AppEnv>, deploymentId: string): Promise<DeploymentCaller> {
  const db = c.get("db");
  const found = await servingTarget(db, deploymentId);
  if (!found || found.d.ownerId !== currentUser(c).id) throw new NotFoundError("Deployment");
  c.set("servedDeploymentId", deploymentId);
  await consumeRateLimit(db, `dep:${deploymentId}`, DEPLOYMENT_RATE());
  return { deploymentId, serving: found };
}
