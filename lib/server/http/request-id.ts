import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";

const VALID = /^[A-Za-z0-9._-]{1,128}$/;

/** Echoes a well-formed caller X-Request-ID, otherwise generates one; set on every response. */
export const requestId: MiddlewareHandler<AppEnv> = async (c, next) => {
  const incoming = c.req.header("X-Request-ID");
  const id = incoming && VALID.test(incoming) ? incoming : `req_${randomUUID().replaceAll("-", "")}`;
  c.set("requestId", id);
  await next();
  c.res.headers.set("X-Request-ID", id);
};
