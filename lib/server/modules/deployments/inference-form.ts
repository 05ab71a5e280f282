/**
 * predict with multipart/form-data (image models): every file part is one picture, in order. The
 * form is handled here, before the route's JSON validation (a JSON body goes on to the route as
 * usual); the body is capped as the JSON one is.
 */
import type { MiddlewareHandler } from "hono";
import { ValidationError } from "../../errors";
import { streamingBodyLimit } from "../../http/body-limit";
import { deploymentCaller } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import { MAX_PREDICT_INSTANCES } from "./deployments.schemas";
import { predictPictures } from "./inference";

function isMultipart(contentType: string | undefined): boolean {
  return /^multipart\/form-data\b/i.test(contentType?.trim() ?? "");
}

export function picturesForm(maxBytes: number): MiddlewareHandler<AppEnv> {
  const limit = streamingBodyLimit(
    maxBytes,
    `The form is larger than this route's limit of ${maxBytes / 1024 / 1024} MiB.`,
  );
  return async (c, next) => {
    if (!isMultipart(c.req.header("content-type"))) return next();
    return limit(c, async () => {
      let form: FormData;
      try {
        form = await c.req.raw.formData();
      } catch {
        throw new ValidationError("The multipart form could not be read.");
      }
      const files = [...form.values()].filter((v): v is File => typeof v !== "string");
      if (files.length === 0 || files.length > MAX_PREDICT_INSTANCES) {
        const detail = `Send 1 to ${MAX_PREDICT_INSTANCES} picture files (one instance each).`;
        throw new ValidationError(detail, [{ path: "inputs", message: detail }]);
      }
      const pictures = await Promise.all(files.map(async (f) => Buffer.from(await f.arrayBuffer())));
      c.set("inferenceInstances", pictures.length);
      const deploymentId = c.req.param("deployment_id") ?? "";
      c.res = c.json(await predictPictures(c.get("db"), deploymentCaller(c), deploymentId, pictures), 200);
    });
  };
}
