import { describe, expect, it } from "vitest";
import { call, signUp, startTestApp, uniqueName } from "../helpers";

const app = await startTestApp();

describe("accounts and sessions", () => {
  it("signs up, reads the session, signs out and back in", async () => {
    const username = uniqueName();
    const email = `${username}@Example.com`;
    const up = await call(app, "POST", "/api/auth/signup", {
      body: { email, username, password: "s3cret-pass" },
    });
    expect(up.status).toBe(201);
    expect(up.json.user).toMatchObject({ username, email, plan: "free" });
    const setCookie = up.res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/layerline_session=lss_/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = setCookie.split(";")[0];

    const s = await call(app, "GET", "/api/auth/session", { cookie });
    expect(s.json.user.username).toBe(username);

    const out = await call(app, "POST", "/api/auth/logout", { cookie });
    expect(out.status).toBe(204);
    const after = await call(app, "GET", "/api/auth/session", { cookie });
    expect(after.json.user).toBeNull();

    const byName = await call(app, "POST", "/api/auth/login", {
      body: { login: username, password: "s3cret-pass" },
    });
    expect(byName.status).toBe(200);
    const byEmail = await call(app, "POST", "/api/auth/login", {
      body: { email: email.toLowerCase(), password: "s3cret-pass" },
    });
    expect(byEmail.status).toBe(200);
  });

  it("rejects a wrong password with 401 and the same message as an unknown user", async () => {
    const { username } = await signUp(app);
    const wrong = await call(app, "POST", "/api/auth/login", {
      body: { login: username, password: "nope-nope" },
    });
    const unknown = await call(app, "POST", "/api/auth/login", {
      body: { login: "ghost-user", password: "nope-nope" },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json.detail).toBe(unknown.json.detail);
  });

  it("refuses duplicate e-mail addresses and usernames, case-insensitively", async () => {
    const { username } = await signUp(app);
    const dupName = await call(app, "POST", "/api/auth/signup", {
      body: {
        email: `${uniqueName()}@example.com`,
        username: username.toUpperCase(),
        password: "password123",
      },
    });
    expect(dupName.status).toBe(409);
    const dupEmail = await call(app, "POST", "/api/auth/signup", {
      body: {
        email: `${username.toUpperCase()}@EXAMPLE.com`,
        username: uniqueName(),
        password: "password123",
      },
    });
    expect(dupEmail.status).toBe(409);
  });

  it("reports every invalid field with 422 problem details", async () => {
    const r = await call(app, "POST", "/api/auth/signup", {
      body: { email: "not-an-email", username: "a", password: "short" },
    });
    expect(r.status).toBe(422);
    expect(r.res.headers.get("content-type")).toBe("application/problem+json");
    const paths = r.json.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["body.email", "body.username", "body.password"]));
  });

  it("answers malformed JSON with 400", async () => {
    const r = await call(app, "POST", "/api/auth/signup", {
      rawBody: "{not json",
      headers: { "Content-Type": "application/json" },
    });
    expect(r.status).toBe(400);
    expect(r.json.title).toBe("Bad request");
    expect(r.text).not.toMatch(/at .*\.ts|node_modules|SyntaxError/);
  });

  it("refuses cross-site unsafe requests made with a session cookie", async () => {
    const { cookie } = await signUp(app);
    const evil = await call(app, "POST", "/api/v1/users/me/api-keys", {
      cookie,
      body: { name: "x" },
      headers: { Origin: "https://evil.example" },
    });
    expect(evil.status).toBe(403);
    const none = await call(app, "POST", "/api/v1/users/me/api-keys", {
      cookie,
      body: { name: "x" },
      headers: { Origin: "" },
    });
    expect(none.status).toBe(403);
  });
});
