import { clientAddress } from "../../http/client-address";
import { createRouter } from "../../http/openapi";
import { consumeRateLimit } from "../../http/rate-limit";
import * as h from "./auth.handlers";
import * as r from "./auth.routes";

/**
 * Sign-up and sign-in: at most LOGIN_RATE_LIMIT_PER_MINUTE (default 30) attempts a minute from one
 * client address (the connection's: http/client-address.ts), on top of the per-account and
 * per-address back-off of auth-limits.ts.
 */
const router = createRouter();
for (const route of ["login", "signup"]) {
  router.use(`/api/auth/${route}`, async (c, next) => {
    const address = clientAddress(c);
    if (address)
      await consumeRateLimit(
        c.get("db"),
        `${route}:${address}`,
        Number(process.env.LOGIN_RATE_LIMIT_PER_MINUTE ?? 30),
      );
    await next();
  });
}

export const authRouter = router
  .openapi(r.signup, h.signupHandler)
  .openapi(r.login, h.loginHandler)
  .openapi(r.logout, h.logoutHandler)
  .openapi(r.getSession, h.getSessionHandler);
