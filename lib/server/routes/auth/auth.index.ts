import { createRouter } from "../../http/openapi";
import { consumeRateLimit } from "../../http/rate-limit";
import * as h from "./auth.handlers";
import * as r from "./auth.routes";

/** Sign-up and sign-in are limited per client address to slow down password guessing. */
const router = createRouter();
router.use("/api/auth/login", async (c, next) => {
  const ip = c.req.header("X-Forwarded-For")?.split(",")[0]?.trim() || "local";
  await consumeRateLimit(c.get("db"), `login:${ip}`, Number(process.env.LOGIN_RATE_LIMIT_PER_MINUTE ?? 30));
  await next();
});

export const authRouter = router
  .openapi(r.signup, h.signupHandler)
  .openapi(r.login, h.loginHandler)
  .openapi(r.logout, h.logoutHandler)
  .openapi(r.getSession, h.getSessionHandler);
