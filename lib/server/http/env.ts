import type { Db } from "../db/client";
import type { ServingTarget, UserRow } from "../db/schema";

export type CredentialKind = "session" | "api_key" | "deployment_key" | "stream_token" | "upload_token";

/** Who is calling, as established by the credentials middleware. */
export type Caller =
  | { kind: "session"; user: UserRow; sessionToken: string }
  | { kind: "api_key"; user: UserRow; keyId: string }
  | {
      kind: "deployment_key";
      deploymentId: string;
      ownerId: string;
      /** The deployment and its current revision, read with the key (one query per request). */
      serving?: ServingTarget;
    }
  | { kind: "stream_token"; subject: string; ownerId: string }
  | { kind: "upload_token"; subject: string; ownerId: string }
  | { kind: "anonymous" };

export interface AppEnv {
  Variables: {
    requestId: string;
    db: Db;
    caller: Caller;
    /**
     * Set by inference routes for the request log (request-logging.ts): the deployment a call was
     * served for when its caller is not that deployment's key (the owner's streaming session), and
     * how many instances it carried.
     */
    servedDeploymentId?: string;
    inferenceInstances?: number;
  };
}
