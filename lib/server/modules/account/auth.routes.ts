import { createRoute, z } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { errors, jsonBody, jsonContent, security } from "../../http/openapi";

export const userSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    username: z.string(),
    display_name: z.string().nullable(),
    plan: z.enum(["free", "pro", "team"]),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("User");

export const sessionSchema = z
  .object({ user: userSchema, expires_at: z.string().openapi({ format: "date-time" }) })
  .openapi("Session");

export const signupBodySchema = z
  .object({
    email: z.email().max(254).openapi({ example: "ada@example.com" }),
    username: z
      .string()
      .min(3)
      .max(32)
      .regex(
        /^[a-zA-Z0-9][a-zA-Z0-9_-]*$/,
        "Use letters, digits, '-' and '_', starting with a letter or digit",
      )
      .openapi({ example: "ada" }),
    password: z.string().min(8, "Use at least 8 characters").max(256),
    display_name: z.string().min(1).max(80).optional(),
  })
  .openapi("SignupRequest");

export const loginBodySchema = z
  .object({
    login: z.string().min(1).max(254).optional().openapi({ description: "E-mail address or username" }),
    email: z.string().min(1).max(254).optional(),
    username: z.string().min(1).max(254).optional(),
    password: z.string().min(1).max(256),
  })
  .refine((b) => b.login ?? b.email ?? b.username, {
    message: "Give an e-mail address or a username",
    path: ["email"],
  })
  .openapi("LoginRequest");

const tags = ["Auth"];

export const signup = createRoute({
  method: "post",
  path: "/api/auth/signup",
  operationId: "signup",
  tags,
  summary: "Create an account and sign in",
  security: [],
  request: { body: jsonBody(signupBodySchema) },
  responses: {
    201: jsonContent(sessionSchema, "Signed up; session cookie set"),
    ...errors(400, 409, 413, 422),
  },
});

export const login = createRoute({
  method: "post",
  path: "/api/auth/login",
  operationId: "login",
  tags,
  summary: "Sign in with e-mail or username and password",
  security: [],
  request: { body: jsonBody(loginBodySchema) },
  responses: {
    200: jsonContent(sessionSchema, "Signed in; session cookie set"),
    ...errors(400, 401, 413, 422),
  },
});

export const logout = createRoute({
  method: "post",
  path: "/api/auth/logout",
  operationId: "logout",
  tags,
  summary: "Sign out (ends this session)",
  description: "Without a session there is nothing to end: 204 all the same.",
  security: security(["session"], true),
  middleware: [credentials(["session"], { optional: true })],
  responses: { 204: { description: "Signed out" }, ...errors(403) },
});

export const getSession = createRoute({
  method: "get",
  path: "/api/auth/session",
  operationId: "getSession",
  tags,
  summary: "The current session, or null when signed out",
  security: security(["session"], true),
  middleware: [credentials(["session"], { optional: true })],
  responses: { 200: jsonContent(z.object({ user: userSchema.nullable() }), "Current session") },
});
