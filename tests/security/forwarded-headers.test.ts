import { afterEach, describe, expect, it } from "vitest";
import { call, signUp, startTestApp } from "../helpers";

/**
 * X-Forwarded-Host is a header any client writes: the cross-site check for cookie-authenticated
 * writes compares the Origin with it only when the connection comes from a proxy in TRUSTED_PROXIES.
 */
const app = await startTestApp();

afterEach(() => {
  delete process.env.TRUSTED_PROXIES;
});

const evil = { Origin: "http://evil.example", "X-Forwarded-Host": "evil.example" };

describe("forwarding headers", () => {
  it("a client's own X-Forwarded-Host does not pass the cross-site check", async () => {
    const { cookie } = await signUp(app);
    const r = await call(app, "POST", "/api/v1/projects", {
      cookie,
      headers: evil,
      remoteAddress: "198.51.100.7",
      body: { name: "cross-site" },
    });
    expect(r.status).toBe(403);
    expect(r.json.detail).toMatch(/Origin/);
  });

  it("a trusted proxy's X-Forwarded-Host is the site's host", async () => {
    process.env.TRUSTED_PROXIES = "loopback";
    const { cookie } = await signUp(app);
    const r = await call(app, "POST", "/api/v1/projects", {
      cookie,
      headers: { Origin: "https://studio.example", "X-Forwarded-Host": "studio.example" },
      remoteAddress: "127.0.0.1",
      body: { name: "behind-proxy" },
    });
    expect(r.status).toBe(201);
    const direct = await call(app, "POST", "/api/v1/projects", {
      cookie,
      headers: { Origin: "https://studio.example", "X-Forwarded-Host": "studio.example" },
      remoteAddress: "198.51.100.7",
      body: { name: "not-a-proxy" },
    });
    expect(direct.status).toBe(403);
  });
});
