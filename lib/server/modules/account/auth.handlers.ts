import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { clientAddress, trustedForwardedHeader } from "../../http/client-address";
import { SESSION_COOKIE } from "../../http/credentials";
import type { AppEnv } from "../../http/env";
import { createSession, deleteSession, toPublicUser } from "./accounts";
import type { getSession, login, logout, signup } from "./auth.routes";
import { signInLimited, signUpLimited } from "./auth-limits";

function isHttps(c: Context<AppEnv>): boolean {
  return (
    trustedForwardedHeader(c, "X-Forwarded-Proto") === "https" || new URL(c.req.url).protocol === "https:"
  );
}

async function startSession(c: Context<AppEnv>, userId: string) {
  const { token, expiresAt } = await createSession(c.get("db"), userId, c.req.header("User-Agent"));
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: isHttps(c),
    path: "/",
    expires: expiresAt,
  });
  return expiresAt;
}

export const signupHandler: RouteHandler<typeof signup, AppEnv> = async (c) => {
  const user = await signUpLimited(c.get("db"), c.req.valid("json"));
  const expiresAt = await startSession(c, user.id);
  return c.json({ user: toPublicUser(user), expires_at: expiresAt.toISOString() }, 201);
};

export const loginHandler: RouteHandler<typeof login, AppEnv> = async (c) => {
  const body = c.req.valid("json");
  const login = body.login ?? body.email ?? body.username ?? "";
  const user = await signInLimited(c.get("db"), login, body.password, clientAddress(c));
  const expiresAt = await startSession(c, user.id);
  return c.json({ user: toPublicUser(user), expires_at: expiresAt.toISOString() }, 200);
};

export const logoutHandler: RouteHandler<typeof logout, AppEnv> = async (c) => {
  const caller = c.get("caller");
  if (caller.kind === "session") await deleteSession(c.get("db"), caller.sessionToken);
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
  return c.body(null, 204);
};

export const getSessionHandler: RouteHandler<typeof getSession, AppEnv> = async (c) => {
  const caller = c.get("caller");
  return c.json({ user: caller.kind === "session" ? toPublicUser(caller.user) : null }, 200);
};
