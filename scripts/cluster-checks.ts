/**
 * Checks that a running local cluster (scripts/cluster.sh) keeps nothing in one server's memory that
 * another needs: each kind of state one API server creates is honoured by the other. It talks to the
 * two API servers directly (not through the load balancer), prints one line per check and exits 1 when
 * one fails (2 without a cluster):
 *
 *   bash scripts/cluster.sh up && npx tsx scripts/cluster-checks.ts; bash scripts/cluster.sh down
 *
 * 1. session: a session signed in on api1 is read on api2 as the same user; signed out on api2, its
 *    cookie is refused on api1.
 * 2. personal key: made on api1, it works on api2; revoked on api2, it is refused (401) on api1.
 * 3. Idempotency-Key: `POST /training/jobs` with a key on api1, then the same request on api2 replays
 *    the first job (`Idempotency-Replayed: true`, no second job); another body with that key: 422.
 * 4. single-use link: a dataset's signed download link used on api1 is refused (410) on api2, and one
 *    minted on api1 and used first on api2 is accepted there, then refused on api1.
 * 5. sign-in back-off: wrong passwords for one account, alternating api1 and api2, meet 429 after the
 *    same number of attempts as on api1 alone (auth-limits.ts: ACCOUNT_BACKOFF.free); so do wrong
 *    passwords from one client address (ADDRESS_BACKOFF.free), each for a name without an account.
 * 6. stream and upload tokens: a job's stream token minted on api1 opens its event stream on api2; an
 *    upload token minted on api1 uploads an event on api2, which the stream sees; one minted on api2
 *    ends the job on api1, and the stream sees the final status.
 *
 * Sign-up and sign-in calls carry a fresh X-Forwarded-For address of the documentation range (the servers
 * trust loopback proxies), so that the per-address limits they spend are not those of another client
 * on this machine (the soak test that follows in CI). Reads $CLUSTER_DIR/cluster.env (cluster-client.ts).
 */
import { randomBytes } from "node:crypto";
import {
  ACCOUNT_BACKOFF,
  ADDRESS_BACKOFF,
  type BackoffPolicy,
} from "../lib/server/modules/account/auth-limits";
import { type CallOptions, call, clusterDir, type Res, readClusterEnv } from "./cluster-client";

const cfg = readClusterEnv();
const lbPort = Number(cfg.CLUSTER_PORT);
if (!cfg.CLUSTER_URL || !Number.isInteger(lbPort)) {
  console.error(
    `No cluster settings: start one with 'bash scripts/cluster.sh up' (CLUSTER_DIR=${clusterDir}).`,
  );
  process.exit(2);
}
/** The browser's origin: the public one (PUBLIC_ORIGIN of every server, the load balancer's URL). */
const ORIGIN = cfg.CLUSTER_URL;
const SERVERS = {
  api1: `http://127.0.0.1:${lbPort + 1}`,
  api2: `http://127.0.0.1:${lbPort + 2}`,
};
type Server = keyof typeof SERVERS;
const on = (server: Server, method: string, route: string, opts: CallOptions = {}): Promise<Res> =>
  call(SERVERS[server], method, route, { redirect: "manual", ...opts });

/** A fresh address of the documentation range 2001:db8::/32 (RFC 3849) for sign-ups and sign-ins. */
const clientAddress = () => `2001:db8:${randomBytes(12).toString("hex").match(/.{4}/g)?.join(":")}`;
const RUN = `${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
const PASSWORD = "correct horse battery";

class CheckFailed extends Error {}
function expect(cond: unknown, what: string, res?: Res): asserts cond {
  if (!cond) throw new CheckFailed(res ? `${what} (got ${res.status} ${res.text.slice(0, 200)})` : what);
}

// ---- accounts -----------------------------------------------------------------------------------

interface Session {
  cookie: string;
  userId: string;
  username: string;
  address: string;
}

function sessionCookie(res: Res): string {
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  expect(cookie.startsWith("layerline_session="), "a session cookie", res);
  return cookie;
}

async function signUp(server: Server, tag: string): Promise<Session> {
  const username = `chk${RUN}${tag}`;
  const address = clientAddress();
  const res = await on(server, "POST", "/api/auth/signup", {
    body: { email: `${username}@example.com`, username, password: PASSWORD },
    headers: { Origin: ORIGIN, "X-Forwarded-For": address },
  });
  expect(res.status === 201, `sign-up on ${server}`, res);
  return { cookie: sessionCookie(res), userId: res.json.user.id, username, address };
}

/** Cookie-authenticated unsafe calls carry the site's Origin (the CSRF rule of decisions.md). */
const withCookie = (cookie: string, unsafe = false): Record<string, string> =>
  unsafe ? { Cookie: cookie, Origin: ORIGIN } : { Cookie: cookie };

async function mintKey(server: Server, cookie: string, name: string): Promise<{ id: string; key: string }> {
  const res = await on(server, "POST", "/api/v1/users/me/api-keys", {
    body: { name },
    headers: withCookie(cookie, true),
  });
  expect(res.status === 201, `personal key made on ${server}`, res);
  return { id: res.json.id, key: res.json.key };
}

// ---- the checks ---------------------------------------------------------------------------------

interface Context {
  owner: Session;
  /** The owner's key for the set-up calls (projects, datasets, jobs). */
  key: string;
  /** The external job of check 3 (check 6 streams it). */
  jobId?: string;
}

async function checkSession(ctx: Context): Promise<string> {
  const login = await on("api1", "POST", "/api/auth/login", {
    body: { login: ctx.owner.username, password: PASSWORD },
    headers: { Origin: ORIGIN, "X-Forwarded-For": ctx.owner.address },
  });
  expect(login.status === 200, "sign-in on api1", login);
  const cookie = sessionCookie(login);
  const read = await on("api2", "GET", "/api/auth/session", { headers: withCookie(cookie) });
  expect(read.status === 200 && read.json.user?.id === ctx.owner.userId, "api2 reads api1's session", read);
  const logout = await on("api2", "POST", "/api/auth/logout", { headers: withCookie(cookie, true) });
  expect(logout.status === 204, "sign-out on api2", logout);
  const after = await on("api1", "GET", "/api/auth/session", { headers: withCookie(cookie) });
  expect(after.status === 200 && after.json.user === null, "api1 no longer knows the session", after);
  const refused = await on("api1", "GET", "/api/v1/users/me/api-keys", { headers: withCookie(cookie) });
  expect(refused.status === 401, "api1 refuses the signed-out cookie (401)", refused);
  return "signed in on api1, read on api2; signed out on api2, refused on api1 (401)";
}

async function checkPersonalKey(ctx: Context): Promise<string> {
  const made = await mintKey("api1", ctx.owner.cookie, `check ${RUN}`);
  const used = await on("api2", "GET", "/api/v1/projects", { key: made.key });
  expect(used.status === 200, "api2 accepts api1's key", used);
  const revoked = await on("api2", "DELETE", `/api/v1/users/me/api-keys/${made.id}`, {
    headers: withCookie(ctx.owner.cookie, true),
  });
  expect(revoked.status === 204, "revoked on api2", revoked);
  const refused = await on("api1", "GET", "/api/v1/projects", { key: made.key });
  expect(refused.status === 401, "api1 refuses the revoked key (401)", refused);
  return "made on api1, used on api2; revoked on api2, refused on api1 (401)";
}

async function checkIdempotency(ctx: Context): Promise<string> {
  const project = await on("api1", "POST", "/api/v1/projects", {
    key: ctx.key,
    body: { name: `check ${RUN}`, template: "mlp-classifier" },
  });
  expect(project.status === 201, "a project", project);
  const projectId = project.json.id as string;
  const body = {
    project_id: projectId,
    dataset_id: "builtin-iris",
    runtime: "external",
    config: { epochs: 2 },
  };
  const headers = { "Idempotency-Key": `check-${RUN}` };
  const first = await on("api1", "POST", "/api/v1/training/jobs", { key: ctx.key, body, headers });
  expect(first.status === 201, "job created on api1", first);
  ctx.jobId = first.json.id as string;
  const again = await on("api2", "POST", "/api/v1/training/jobs", { key: ctx.key, body, headers });
  expect(
    again.status === 201 && again.json.id === first.json.id,
    `api2 answers the same job ${first.json.id}`,
    again,
  );
  expect(again.headers.get("idempotency-replayed") === "true", "api2's answer is a replay", again);
  const other = { ...body, config: { epochs: 3 } };
  const conflict = await on("api2", "POST", "/api/v1/training/jobs", { key: ctx.key, body: other, headers });
  expect(conflict.status === 422, "another body with the key: 422", conflict);
  const jobs = await on("api1", "GET", `/api/v1/training/jobs?project_id=${projectId}`, { key: ctx.key });
  expect(jobs.status === 200 && jobs.json.total === 1, "one job in the project", jobs);
  return "POST /training/jobs on api1, replayed on api2 (same job, no second one); another body: 422";
}

/** The link's path and query on `server` (the link names the public origin). */
const linkOn = (server: Server, url: string) => {
  const u = new URL(url);
  return `${SERVERS[server]}${u.pathname}${u.search}`;
};

async function spendLink(server: Server, url: string, csv: string): Promise<string> {
  const res = await on(server, "GET", linkOn(server, url));
  if (res.status === 302) {
    const object = await fetch(res.headers.get("location") as string, {
      signal: AbortSignal.timeout(10_000),
    });
    const text = await object.text();
    expect(object.status === 200 && text === csv, `the presigned object behind ${server}'s 302 is the file`);
    return "302";
  }
  expect(res.status === 200 && res.text === csv, `the link works on ${server}`, res);
  return "200";
}

async function checkSingleUseLink(ctx: Context): Promise<string> {
  const csv = `x,label\n${Array.from({ length: 20 }, (_, i) => `${i},${i % 2 ? "a" : "b"}`).join("\n")}\n`;
  const fd = new FormData();
  fd.set("name", `check ${RUN}`);
  fd.set("file", new Blob([csv]), `check-${RUN}.csv`);
  const dataset = await on("api1", "POST", "/api/v1/datasets/", { key: ctx.key, raw: fd });
  expect(dataset.status === 201, "a dataset", dataset);
  const meta = (server: Server) =>
    on(server, "GET", `/api/v1/datasets/${dataset.json.dataset.id}/meta`, { key: ctx.key });
  const expectGone = async (server: Server, url: string) => {
    const res = await on(server, "GET", linkOn(server, url));
    expect(
      res.status === 410 && res.headers.get("content-type")?.startsWith("application/problem+json"),
      `the used link is refused on ${server} (410)`,
      res,
    );
  };
  const a = await meta("api1");
  expect(a.status === 200 && a.json.download_url, "a link from api1's /meta", a);
  const firstUse = await spendLink("api1", a.json.download_url, csv);
  await expectGone("api2", a.json.download_url);
  const b = await meta("api1");
  expect(b.status === 200 && b.json.download_url, "a second link from api1's /meta", b);
  await spendLink("api2", b.json.download_url, csv);
  await expectGone("api1", b.json.download_url);
  return `used on api1 (${firstUse}), refused on api2 (410); minted on api1, used on api2, refused on api1 (410)`;
}

/**
 * Wrong passwords from `address` on `servers` in turn (the login of attempt i: `login(i)`) until a
 * 429 or `policy.free` + 3 attempts: the statuses, in order. `inTime`: the attempt after the last free
 * one was sent within the first wait (policy.baseMs) of the one before; later, it is counted again and
 * proves nothing either way.
 */
async function wrongPasswords(
  login: (i: number) => string,
  address: string,
  servers: Server[],
  policy: BackoffPolicy,
): Promise<{ statuses: number[]; inTime: boolean }> {
  const statuses: number[] = [];
  let inTime = true;
  let lastSent = 0;
  for (let i = 0; i < policy.free + 3; i++) {
    const server = servers[i % servers.length];
    const sent = Date.now();
    if (i === policy.free && sent - lastSent >= policy.baseMs) inTime = false;
    lastSent = sent;
    const res = await on(server, "POST", "/api/auth/login", {
      body: { login: login(i), password: "wrong horse battery" },
      headers: { Origin: ORIGIN, "X-Forwarded-For": address },
    });
    statuses.push(res.status);
    if (res.status === 429) {
      expect(Number(res.headers.get("retry-after")) >= 1, `429 with Retry-After from ${server}`, res);
      break;
    }
    expect(res.status === 401, `a wrong password answered 401 on ${server}`, res);
  }
  return { statuses, inTime };
}

const runs = (statuses: number[]) =>
  statuses.join(",").replace(/(401,)+/, (m) => `401 x${m.split(",").length - 1},`);

/**
 * The back-off of one account (ACCOUNT_BACKOFF) and of one client address (ADDRESS_BACKOFF: wrong
 * passwords for names that have no account, each once): 429 after the same number of attempts on
 * api1 alone as on api1 and api2 in turn.
 */
async function checkLoginBackoff(): Promise<string> {
  const found: string[] = [];
  // The first wait is short (baseMs): on a busy machine an attempt may come too late to meet it; such
  // a round is played again with new accounts and addresses.
  for (const [what, policy] of [
    ["account", ACCOUNT_BACKOFF],
    ["address", ADDRESS_BACKOFF],
  ] as const) {
    let done = false;
    for (let round = 1; round <= 3 && !done; round++) {
      const tag = `${what.slice(0, 2)}${round}`;
      const attempts = async (servers: Server[], side: string) => {
        if (what === "account") {
          const who = await signUp(servers[servers.length - 1], `${tag}${side}`);
          return wrongPasswords(() => who.username, who.address, servers, policy);
        }
        return wrongPasswords((i) => `nobody${RUN}${tag}${side}${i}`, clientAddress(), servers, policy);
      };
      const alone = await attempts(["api1"], "a");
      const spread = await attempts(["api1", "api2"], "b");
      if (!alone.inTime || !spread.inTime) continue;
      const expected = [...Array(policy.free).fill(401), 429].join(",");
      expect(
        alone.statuses.join(",") === expected,
        `${what}, api1 alone: ${runs(alone.statuses)} (expected 401 x${policy.free},429)`,
      );
      expect(
        spread.statuses.join(",") === expected,
        `${what}, api1 and api2 in turn: ${runs(spread.statuses)} (api1 alone: ${runs(alone.statuses)})`,
      );
      found.push(`${what} ${runs(spread.statuses)}`);
      done = true;
    }
    if (!done)
      throw new CheckFailed(`${what}: in three rounds an attempt came too late to meet the first wait`);
  }
  return `429 after the same count on api1 alone as on api1/api2 in turn: ${found.join("; ")}`;
}

interface StreamEvent {
  id: number;
  event: string;
  data: string;
}

/** Reads an SSE answer until `done(events)` or the stream ends (or `ms` pass). */
async function readStream(res: Response, ms: number, done: (events: StreamEvent[]) => boolean) {
  const events: StreamEvent[] = [];
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), ms);
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
        const fields: Record<string, string> = {};
        for (const line of buffer.slice(0, cut).split("\n")) {
          const colon = line.indexOf(":");
          if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 1).trim();
        }
        buffer = buffer.slice(cut + 2);
        if (fields.id) events.push({ id: Number(fields.id), event: fields.event, data: fields.data });
      }
      if (done(events)) break;
    }
  } catch {
    /* cancelled at the deadline */
  } finally {
    clearTimeout(timer);
    void reader.cancel().catch(() => {});
  }
  return events;
}

async function checkStreamTokens(ctx: Context): Promise<string> {
  expect(ctx.jobId, "the job of the Idempotency-Key check");
  const job = `/api/v1/training/jobs/${ctx.jobId}`;
  const access = await on("api1", "POST", `${job}/stream-access-token`, { key: ctx.key });
  expect(access.status === 201, "a stream token minted on api1", access);
  const stream = await fetch(`${SERVERS.api2}${access.json.stream_url}`, {
    signal: AbortSignal.timeout(20_000),
  });
  expect(stream.status === 200, `api2 opens the stream with api1's token (got ${stream.status})`);
  const final = (events: StreamEvent[]) =>
    events.some((e) => e.event === "status" && JSON.parse(e.data).status === "succeeded");
  const seen = readStream(stream, 12_000, final);

  const upload1 = await on("api1", "POST", `${job}/stream-token`, { key: ctx.key });
  expect(upload1.status === 201, "an upload token minted on api1", upload1);
  const metric = { kind: "metric", name: "loss", value: 0.5, step: 1, epoch: 1, id: `check-${RUN}` };
  const sent = await on("api2", "POST", `${job}/metrics/events`, {
    key: upload1.json.token,
    body: { events: [metric] },
  });
  expect(
    sent.status === 202 && sent.json.accepted === 1,
    "api2 takes an event with api1's upload token",
    sent,
  );
  const upload2 = await on("api2", "POST", `${job}/stream-token`, { key: ctx.key });
  expect(upload2.status === 201, "an upload token minted on api2", upload2);
  const ended = await on("api1", "POST", `${job}/metrics/events`, {
    key: upload2.json.token,
    body: { events: [{ kind: "status", status: "succeeded" }] },
  });
  expect(ended.status === 202, "api1 takes the final status with api2's upload token", ended);

  const events = await seen;
  const kinds = events.map((e) => e.event);
  expect(
    events.some((e) => e.event === "metric" && JSON.parse(e.data).name === "loss"),
    `api2's stream shows the metric sent to api2 (saw ${kinds.join(",") || "nothing"})`,
  );
  expect(final(events), `api2's stream ends with the status sent to api1 (saw ${kinds.join(",")})`);
  return `stream token from api1 opens the stream on api2 (${events.length} events: ${kinds.join(",")}); upload tokens from api1 and api2 used on the other`;
}

// ---- run ----------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const t0 = Date.now();
  let failed = 0;
  const report = (ok: boolean, name: string, detail: string) => {
    console.log(`${ok ? "ok  " : "FAIL"} ${name.padEnd(18)} ${detail}`);
    if (!ok) failed++;
  };
  const run = async (name: string, check: () => Promise<string>) => {
    try {
      report(true, name, await check());
    } catch (err) {
      report(false, name, err instanceof Error ? err.message : String(err));
    }
  };
  console.log(`cluster checks: api1 ${SERVERS.api1}, api2 ${SERVERS.api2} (directly)`);
  let ctx: Context;
  try {
    const owner = await signUp("api1", "own");
    ctx = { owner, key: (await mintKey("api1", owner.cookie, "checks")).key };
  } catch (err) {
    report(false, "set-up", err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
  await run("1 session", () => checkSession(ctx));
  await run("2 personal key", () => checkPersonalKey(ctx));
  await run("3 idempotency", () => checkIdempotency(ctx));
  await run("4 single-use link", () => checkSingleUseLink(ctx));
  await run("5 sign-in limit", () => checkLoginBackoff());
  await run("6 stream tokens", () => checkStreamTokens(ctx));
  console.log(
    `cluster checks: ${failed ? `${failed} failed` : "all passed"} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  process.exit(failed ? 1 : 0);
}

void main();
