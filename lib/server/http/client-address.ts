import net from "node:net";
import type { Context } from "hono";
import type { AppEnv } from "./env";

/**
 * The client address that per-address limits count (anonymous API calls, sign-in, sign-up).
 *
 * It is the connection's remote address, which the Node.js server hands the app with each request
 * (`c.env.incoming.socket`, as @hono/node-server passes it). `X-Forwarded-For` is a header any client
 * writes, so it is read only when the connection comes from a proxy listed in `TRUSTED_PROXIES`
 * (comma-separated addresses and CIDR ranges, plus the words `loopback` and `private`; empty by
 * default): then the address is the right-most entry that is not itself a trusted proxy, the last hop
 * a trusted proxy saw. Entries to its left were written by the client and are ignored.
 *
 * Without a connection (Next.js's route handler under `next dev`, which hands the app a bare Request;
 * `npm start` serves the API with a connection) there is no client address: per-address limits do not
 * apply, per-account ones still do. Never a shared placeholder that would make every client one bucket.
 */

interface Incoming {
  socket?: { remoteAddress?: string };
}

/** The connection's remote address, or null when the app was handed a request without one. */
export function socketAddress(c: Context<AppEnv>): string | null {
  const env = c.env as { incoming?: Incoming; server?: { incoming?: Incoming } } | undefined;
  const incoming = env?.incoming ?? env?.server?.incoming;
  return incoming?.socket?.remoteAddress || null;
}

/** `::ffff:192.0.2.1` (IPv4 on an IPv6 socket) → `192.0.2.1`; IPv6 lower-cased; null when not an IP. */
function normalize(address: string): string | null {
  let a = address.trim();
  if (a.startsWith("[") && a.endsWith("]")) a = a.slice(1, -1);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(a);
  if (mapped) a = mapped[1];
  const family = net.isIP(a);
  if (family === 4) return a;
  if (family === 6) return a.toLowerCase();
  return null;
}

const KEYWORDS: Record<string, [string, number, "ipv4" | "ipv6"][]> = {
  loopback: [
    ["127.0.0.0", 8, "ipv4"],
    ["::1", 128, "ipv6"],
  ],
  private: [
    ["10.0.0.0", 8, "ipv4"],
    ["172.16.0.0", 12, "ipv4"],
    ["192.168.0.0", 16, "ipv4"],
    ["fc00::", 7, "ipv6"],
  ],
};

const parsed = new Map<string, net.BlockList>();

/** The BlockList of a TRUSTED_PROXIES value; entries that are not addresses or ranges are ignored. */
function trustedList(setting: string): net.BlockList {
  let list = parsed.get(setting);
  if (list) return list;
  list = new net.BlockList();
  for (const raw of setting.split(",")) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (KEYWORDS[entry]) {
      for (const [addr, prefix, type] of KEYWORDS[entry]) list.addSubnet(addr, prefix, type);
      continue;
    }
    const [addr, bits] = entry.split("/");
    const ip = normalize(addr);
    if (!ip) continue;
    const type = net.isIP(ip) === 4 ? "ipv4" : "ipv6";
    const prefix = bits === undefined ? (type === "ipv4" ? 32 : 128) : Number(bits);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > (type === "ipv4" ? 32 : 128)) continue;
    list.addSubnet(ip, prefix, type);
  }
  parsed.set(setting, list);
  return list;
}

function isTrusted(list: net.BlockList, ip: string): boolean {
  return list.check(ip, net.isIP(ip) === 4 ? "ipv4" : "ipv6");
}

/**
 * The client address of a request that came over a connection from `peer` carrying `forwardedFor`,
 * given the TRUSTED_PROXIES setting; null without a connection.
 */
export function resolveClientAddress(
  peer: string | null,
  forwardedFor: string | undefined,
  trustedProxies: string | undefined,
): string | null {
  if (!peer) return null;
  let hop = normalize(peer) ?? peer;
  const setting = trustedProxies?.trim() ?? "";
  if (!setting || !forwardedFor) return hop;
  const trusted = trustedList(setting);
  if (!isTrusted(trusted, hop)) return hop;
  const entries = forwardedFor.split(",");
  for (let i = entries.length - 1; i >= 0; i--) {
    const ip = normalize(entries[i]);
    if (!ip) return hop; // written by no proxy we trust: stop at the last real hop
    hop = ip;
    if (!isTrusted(trusted, ip)) return ip;
  }
  return hop;
}

/** This request's client address (see above), or null when it has none. */
export function clientAddress(c: Context<AppEnv>): string | null {
  return resolveClientAddress(socketAddress(c), c.req.header("X-Forwarded-For"), process.env.TRUSTED_PROXIES);
}

/**
 * A forwarding header (`X-Forwarded-Host`, `X-Forwarded-Proto`) when the connection comes from a
 * proxy listed in TRUSTED_PROXIES; undefined otherwise, since any other client can write it.
 */
export function trustedForwardedHeader(c: Context<AppEnv>, name: string): string | undefined {
  const peer = socketAddress(c);
  const setting = process.env.TRUSTED_PROXIES?.trim();
  if (!peer || !setting) return undefined;
  const ip = normalize(peer);
  if (!ip || !isTrusted(trustedList(setting), ip)) return undefined;
  return c.req.header(name)?.split(",")[0]?.trim() || undefined;
}
