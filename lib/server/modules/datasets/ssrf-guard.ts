import dns from "node:dns";
import net from "node:net";
import { ValidationError } from "../../errors";

/**
 * Server-side request forgery protection for dataset fetches: only http(s), and never an address that
 * is private, loopback, link-local, unique-local, unspecified, multicast or otherwise not globally
 * routable (IPv4 and IPv6, including IPv4-mapped, NAT64 and 6to4 forms that embed an IPv4 address).
 * The check runs on the address the socket actually connects to (a `lookup` hook), so a DNS answer
 * cannot change between the check and the connection. `DATASET_FETCH_ALLOW_PRIVATE=1` turns the address
 * check off (tests against a local server; never in production).
 */

export class SsrfError extends ValidationError {
  constructor(detail: string) {
    super(detail, [{ path: "url", message: detail }]);
  }
}

const blocked = new net.BlockList();
for (const [net4, prefix] of [
  ["0.0.0.0", 8], // "this network", incl. 0.0.0.0 (unspecified)
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local (cloud metadata lives here)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, incl. broadcast
] as const) {
  blocked.addSubnet(net4, prefix, "ipv4");
}
// IPv4-mapped (::ffff:0:0/96) and IPv4-compatible (::/96) ranges are not listed: Node's BlockList
// matches plain IPv4 addresses against them. Their embedded IPv4 address is checked instead.
for (const [net6, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["2001::", 23], // IETF protocol assignments (Teredo, ORCHID…)
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(net6, prefix, "ipv6");
}

/** The eight 16-bit groups of an IPv6 address (which must be valid). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split("%")[0];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1].split(".").map(Number);
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, null];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  const groups = [...left, ...(tail === null ? [] : Array(missing).fill("0")), ...right];
  return groups.map((g) => Number.parseInt(g || "0", 16));
}

function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return v4(g[6], g[7]); // mapped / compatible
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6], g[7]); // NAT64 well-known prefix
  if (g[0] === 0x2002) return v4(g[1], g[2]); // 6to4
  return null;
}

/** True when connecting to this IP address must be refused. */
export function isForbiddenAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "");
  const family = net.isIP(ip);
  if (family === 4) return blocked.check(ip, "ipv4");
  if (family === 6) {
    if (blocked.check(ip, "ipv6")) return true;
    const v4 = embeddedIpv4(ip);
    return v4 !== null && blocked.check(v4, "ipv4");
  }
  return true; // not an IP address at all
}

export function privateAddressesAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.DATASET_FETCH_ALLOW_PRIVATE === "1";
}

export interface GuardOptions {
  /** Overrides the environment switch (tests). */
  allowPrivate?: boolean;
  /** Extra test hook: addresses allowed even though they are private. */
  allowAddress?: (address: string) => boolean;
}

function allowed(address: string, opts: GuardOptions): boolean {
  if (opts.allowPrivate ?? privateAddressesAllowed()) return true;
  if (opts.allowAddress?.(address)) return true;
  return !isForbiddenAddress(address);
}

/** Parses and checks a URL's scheme and credentials; returns the URL. */
export function parseFetchUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SsrfError("The URL is not valid.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new SsrfError("Only http and https URLs can be fetched.");
  if (url.username || url.password) throw new SsrfError("URLs with embedded credentials are not accepted.");
  if (!url.hostname) throw new SsrfError("The URL has no host.");
  return url;
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/**
 * Resolves the URL's host and refuses it when any of its addresses is forbidden (a host that resolves
 * to both a public and a private address is refused: the connection could pick either).
 */
export async function assertUrlAllowed(url: URL, opts: GuardOptions = {}): Promise<void> {
  const host = hostOf(url);
  let addresses: string[];
  if (net.isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw new SsrfError(`The host ${host} could not be resolved.`);
    }
  }
  const bad = addresses.find((a) => !allowed(a, opts));
  if (bad !== undefined)
    throw new SsrfError(`The URL points to an address that cannot be fetched (${describeAddress(bad)}).`);
}

function describeAddress(address: string): string {
  const ip = address.replace(/^\[|\]$/g, "");
  return net.isIP(ip) ? "a private, loopback, link-local or reserved address" : "not an IP address";
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request / https.request that resolves, checks every address and hands the
 * socket only checked ones: the address connected to is the address checked.
 */
export function guardedLookup(opts: GuardOptions = {}) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => !allowed(a.address, opts));
      if (bad || list.length === 0) {
        const e: NodeJS.ErrnoException = new SsrfError(
          `The host ${hostname} resolves to an address that cannot be fetched.`,
        );
        e.code = "ESSRF";
        return callback(e, "", 0);
      }
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/** Checks a literal-IP host synchronously (lookup hooks are not called for IP literals). */
export function assertLiteralHostAllowed(url: URL, opts: GuardOptions = {}): void {
  const host = hostOf(url);
  if (net.isIP(host) && !allowed(host, opts))
    throw new SsrfError(`The URL points to an address that cannot be fetched (${describeAddress(host)}).`);
}
