import { serve } from "@hono/node-server";
import { afterEach, describe, expect, it } from "vitest";
import { resolveClientAddress } from "@/lib/server/http/client-address";
import { resetRateLimits } from "@/lib/server/http/rate-limit";
import { call, startTestApp } from "../helpers";

/**
 * The client address behind per-address limits is the connection's; X-Forwarded-For counts only when
 * the connection comes from a proxy listed in TRUSTED_PROXIES, and then only its right-most entry
 * that is not itself a trusted proxy.
 */
const app = await startTestApp();

afterEach(() => {
  delete process.env.RATE_LIMIT_PER_MINUTE;
  delete process.env.TRUSTED_PROXIES;
  resetRateLimits();
});

let counter = 0;
const forged = () => `203.0.113.${++counter % 250}, 10.${counter % 250}.0.1`;

async function anonymousCalls(n: number, remoteAddress: string, headers: () => Record<string, string>) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await call(app, "GET", "/api/v1/hub/models", { remoteAddress, headers: headers() });
    statuses.push(r.status);
    if (r.status === 429) {
      expect(r.res.headers.get("content-type")).toContain("application/problem+json");
      expect(Number(r.res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  }
  return statuses;
}

describe("anonymous API limit per client address", () => {
  it("a forged X-Forwarded-For on every request does not give a fresh limit", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "4";
    resetRateLimits();
    const statuses = await anonymousCalls(7, "198.51.100.20", () => ({ "X-Forwarded-For": forged() }));
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429]);
    // Another client (another connection address) has its own limit, untouched by the first one.
    const other = await anonymousCalls(1, "198.51.100.21", () => ({}));
    expect(other).toEqual([200]);
  });

  it("behind a trusted proxy, each real client has its own bucket and cannot escape it by prepending entries", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "3";
    process.env.TRUSTED_PROXIES = "127.0.0.1, 10.0.0.0/8";
    resetRateLimits();
    // The client 192.0.2.77 writes whatever it likes; the proxy (127.0.0.1) appends the address it saw.
    const attacker = await anonymousCalls(5, "127.0.0.1", () => ({
      "X-Forwarded-For": `${forged()}, 192.0.2.77`,
    }));
    expect(attacker).toEqual([200, 200, 200, 429, 429]);
    const neighbour = await anonymousCalls(1, "127.0.0.1", () => ({ "X-Forwarded-For": "192.0.2.78" }));
    expect(neighbour).toEqual([200]);
  });

  it("an untrusted connection's X-Forwarded-For is ignored even when it names a trusted proxy", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "2";
    process.env.TRUSTED_PROXIES = "10.0.0.0/8";
    resetRateLimits();
    const statuses = await anonymousCalls(3, "198.51.100.30", () => ({
      "X-Forwarded-For": `${forged()}, 10.1.2.3`,
    }));
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe("over a real connection (the Node.js server, as npm start serves the API)", () => {
  it("the socket's address is the client's: forged headers share its limit", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "3";
    resetRateLimits();
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    });
    try {
      const { port } = server.address() as { port: number };
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/hub/models`, {
          headers: { "X-Forwarded-For": forged(), "X-Real-IP": forged() },
        });
        await res.arrayBuffer();
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    } finally {
      server.close();
    }
  });
});

describe("resolveClientAddress", () => {
  it("is the connection's address unless the connection is a trusted proxy", () => {
    expect(resolveClientAddress("198.51.100.1", "1.2.3.4", "")).toBe("198.51.100.1");
    expect(resolveClientAddress("::ffff:198.51.100.1", undefined, "")).toBe("198.51.100.1");
    expect(resolveClientAddress("198.51.100.1", "1.2.3.4", "10.0.0.0/8")).toBe("198.51.100.1");
  });

  it("takes the right-most untrusted X-Forwarded-For entry behind trusted proxies", () => {
    const trusted = "loopback, 10.0.0.0/8, 2001:db8::/32";
    expect(resolveClientAddress("127.0.0.1", "6.6.6.6, 192.0.2.1", trusted)).toBe("192.0.2.1");
    expect(resolveClientAddress("127.0.0.1", "6.6.6.6, 192.0.2.1, 10.0.0.2", trusted)).toBe("192.0.2.1");
    expect(resolveClientAddress("::1", "192.0.2.1", trusted)).toBe("192.0.2.1");
    expect(resolveClientAddress("2001:db8::5", "2001:DB8:1::1, 198.51.100.9", trusted)).toBe("198.51.100.9");
    // No header: the proxy itself is the client.
    expect(resolveClientAddress("10.0.0.2", undefined, trusted)).toBe("10.0.0.2");
    // Every hop trusted: the left-most one.
    expect(resolveClientAddress("10.0.0.2", "10.0.0.3, 10.0.0.4", trusted)).toBe("10.0.0.3");
    // A malformed entry stops the walk at the last hop known to be real.
    expect(resolveClientAddress("10.0.0.2", "192.0.2.1, not-an-ip", trusted)).toBe("10.0.0.2");
  });

  it("has no address without a connection, whatever the headers say", () => {
    expect(resolveClientAddress(null, "192.0.2.1", "loopback")).toBeNull();
  });
});
