/**
 * PostgreSQL LISTEN, shared: one listening connection per database client in this process, one
 * LISTEN per channel on it, and any number of handlers per channel. Appends notify their channel at
 * commit with the payload `<origin> <id>`, where the origin names the appending process's database
 * handle, so handlers can skip their own process's appends (already delivered in process).
 * On the embedded database (PGlite) one process owns the database and there is nothing to listen to.
 */
import { randomBytes } from "node:crypto";
import type { Sql } from "postgres";
import type { Db } from "../db/client";

export interface ChannelHandler {
  /** A notification from another process: the id it names. */
  onOther(id: string): void;
  /** After every (re)connection: notifications sent while disconnected are lost, so read now. */
  onConnect(): void;
}

const origins = new WeakMap<Db, string>();

/** A random token naming this process's appends through `db` (the payload's first word). */
export function appendOrigin(db: Db): string {
  let origin = origins.get(db);
  if (!origin) {
    origin = randomBytes(6).toString("hex");
    origins.set(db, origin);
  }
  return origin;
}

/** The payload an append through `db` notifies for `id`. */
export function notifyPayload(db: Db, id: string): string {
  return `${appendOrigin(db)} ${id}`;
}

/** The postgres.js client behind a Drizzle database, or null (PGlite). */
export function postgresClientOf(db: Db): Sql | null {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (typeof client !== "function") return null;
  const candidate = client as Partial<Sql>;
  return typeof candidate.listen === "function" && typeof candidate.unsafe === "function"
    ? (client as Sql)
    : null;
}

/**
 * Whether `db` (a database or a transaction of one) talks to a PostgreSQL server: a transaction
 * carries no `$client`, but its session's client is postgres.js's (a function; PGlite's is an object).
 */
export function isPostgresServer(db: Db): boolean {
  if (postgresClientOf(db)) return true;
  const session = (db as unknown as { session?: { client?: unknown } }).session;
  return typeof session?.client === "function";
}

interface Listening {
  handlers: Set<ChannelHandler>;
  /** Whether the LISTEN is set up or on its way (cleared when it failed, to try again). */
  active: boolean;
}

const globalState = globalThis as unknown as { __layerlineListens?: WeakMap<object, Map<string, Listening>> };
globalState.__layerlineListens ??= new WeakMap();
const byClient = globalState.__layerlineListens;

function ensureListen(db: Db, client: Sql, channel: string, entry: Listening): void {
  if (entry.active) return;
  entry.active = true;
  const own = appendOrigin(db);
  client
    .listen(
      channel,
      (payload) => {
        const space = payload.indexOf(" ");
        if (space < 0 || payload.slice(0, space) === own) return;
        const id = payload.slice(space + 1);
        for (const h of entry.handlers) h.onOther(id);
      },
      () => {
        for (const h of entry.handlers) h.onConnect();
      },
    )
    .catch((err: unknown) => {
      // The polls still deliver; LISTEN is tried again with the next new handler.
      entry.active = false;
      console.error(`[events] LISTEN ${channel} failed:`, err instanceof Error ? err.message : err);
    });
}

/**
 * Calls `handler` on notifications of `channel` from other processes (PostgreSQL only; a no-op on
 * PGlite). Returns the function that removes it; the LISTEN itself stays for the client's lifetime.
 */
export function listenChannel(db: Db, channel: string, handler: ChannelHandler): () => void {
  const client = postgresClientOf(db);
  if (!client) return () => {};
  let channels = byClient.get(client);
  if (!channels) {
    channels = new Map();
    byClient.set(client, channels);
  }
  let entry = channels.get(channel);
  if (!entry) {
    entry = { handlers: new Set(), active: false };
    channels.set(channel, entry);
  }
  entry.handlers.add(handler);
  ensureListen(db, client, channel, entry);
  const owner = entry;
  return () => {
    owner.handlers.delete(handler);
  };
}
