import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { acquireDirectoryLock } from "./directory-lock";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DbTarget =
  | { kind: "pglite"; dir: string }
  | { kind: "pglite-memory" }
  | { kind: "postgres"; url: string };

interface OpenDb {
  db: Db;
  target: DbTarget;
  close: () => Promise<void>;
}

const MIGRATIONS = path.join(/* turbopackIgnore: true */ process.cwd(), "drizzle");

/**
 * Opens the database and runs pending migrations. PGlite (embedded PostgreSQL) is used unless a
 * DATABASE_URL is given; a PGlite directory is owned by exactly one process (see directory-lock.ts).
 */
export async function openDb(target: DbTarget): Promise<OpenDb> {
  if (target.kind === "postgres") {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const client = postgres(target.url, { max: 10, onnotice: () => {} });
    const db = drizzle(client, { schema });
    // Several processes (server, workers) may start together: serialise migrations.
    await db.execute(sql`select pg_advisory_lock(727374)`);
    try {
      await migrate(db, { migrationsFolder: MIGRATIONS });
    } finally {
      await db.execute(sql`select pg_advisory_unlock(727374)`);
    }
    return { db: db as unknown as Db, target, close: () => client.end() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  let release = () => {};
  let client: InstanceType<typeof PGlite>;
  if (target.kind === "pglite") {
    fs.mkdirSync(target.dir, { recursive: true });
    release = acquireDirectoryLock(target.dir);
    client = new PGlite(path.join(target.dir, "pg"));
  } else {
    client = new PGlite();
  }
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: MIGRATIONS });
  return {
    db: db as unknown as Db,
    target,
    close: async () => {
      await client.close();
      release();
    },
  };
}

export function targetFromEnv(env: NodeJS.ProcessEnv = process.env): DbTarget {
  if (env.DATABASE_URL) return { kind: "postgres", url: env.DATABASE_URL };
  if (env.DATA_DIR === ":memory:") return { kind: "pglite-memory" };
  return { kind: "pglite", dir: path.resolve(/* turbopackIgnore: true */ env.DATA_DIR ?? ".data") };
}

const globalForDb = globalThis as unknown as {
  __layerlineDb?: Promise<OpenDb>;
  __layerlineDbCloseHooks?: Map<string, (db: Db) => Promise<void>>;
};

/**
 * Registers work to run on the process-wide database just before `closeDb` closes it (the usage
 * recorder flushes its batch). The database layer knows no service: services register themselves,
 * once per name.
 */
export function onBeforeCloseDb(name: string, hook: (db: Db) => Promise<void>): void {
  globalForDb.__layerlineDbCloseHooks ??= new Map();
  globalForDb.__layerlineDbCloseHooks.set(name, hook);
}

/** The process-wide database, opened lazily on first use (so `next build` never opens it). */
export function getDb(): Promise<Db> {
  globalForDb.__layerlineDb ??= openDb(targetFromEnv());
  return globalForDb.__layerlineDb.then((o) => o.db);
}

/** Installs an already-open database as the process-wide one (tests, scripts). */
export function setDb(open: OpenDb): void {
  globalForDb.__layerlineDb = Promise.resolve(open);
}

export async function closeDb(): Promise<void> {
  const open = globalForDb.__layerlineDb;
  globalForDb.__layerlineDb = undefined;
  if (!open) return;
  const { db, close } = await open;
  for (const hook of globalForDb.__layerlineDbCloseHooks?.values() ?? []) await hook(db).catch(() => {});
  await close();
}
