import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamps, tstz } from "./columns";

/**
 * Every table has an opaque text id (see lib/server/ids.ts), an owner where the row belongs to a user,
 * and created/updated timestamps in UTC. Secrets (session tokens, API keys) are stored only as SHA-256
 * hashes; the plaintext is shown to the user once.
 */

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    username: text("username").notNull(),
    displayName: text("display_name"),
    bio: text("bio"),
    passwordHash: text("password_hash").notNull(),
    plan: text("plan", { enum: ["free", "pro", "team"] })
      .notNull()
      .default("free"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`),
    uniqueIndex("users_username_lower_idx").on(sql`lower(${t.username})`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: tstz("expires_at").notNull(),
    userAgent: text("user_agent"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("sessions_token_hash_idx").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** First characters of the key (e.g. "lk_AbC1"), shown in lists so users can tell keys apart. */
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    lastUsedAt: tstz("last_used_at"),
    revokedAt: tstz("revoked_at"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("api_keys_hash_idx").on(t.keyHash), index("api_keys_user_idx").on(t.userId)],
);

/** Request counts per key per UTC day, split by success and error. */
export const apiKeyUsage = pgTable(
  "api_key_usage",
  {
    keyId: text("key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    requests: integer("requests").notNull().default(0),
    errors: integer("errors").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day] })],
);

/** Credits ledger: the balance is the sum of a user's entries (in thousandths of a credit). */
export const creditEntries = pgTable(
  "credit_entries",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amountMilli: bigint("amount_milli", { mode: "number" }).notNull(),
    reason: text("reason").notNull(),
    reference: text("reference"),
    createdAt: createdAt(),
  },
  (t) => [index("credit_entries_user_idx").on(t.userId)],
);

/** Stored results of requests that carried an Idempotency-Key (contract §4.14). */
export const idempotencyRecords = pgTable(
  "idempotency_records",
  {
    /** Scope (credential owner) + route + key, hashed. */
    id: text("id").primaryKey(),
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: ["in_flight", "done"] }).notNull(),
    status: integer("status"),
    headers: jsonb("headers").$type<Record<string, string>>(),
    body: text("body"),
    expiresAt: tstz("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("idempotency_expires_idx").on(t.expiresAt)],
);

export type UserRow = typeof users.$inferSelect;
