import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/**
 * Request counts per caller bucket and fixed one-minute window, shared by every server process
 * (see lib/server/http/rate-limit.ts: processes take leases of several requests at a time).
 */
export const rateLimitWindows = pgTable(
  "rate_limit_windows",
  {
    bucket: text("bucket").notNull(),
    windowStart: tstz("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);

/**
 * Sign-in and sign-up attempts per account and per client address, for their exponential back-off
 * (lib/server/modules/account/auth-limits.ts): shared by every server process like the windows above.
 * `blocked_until` is when the next attempt may be made; rows quiet for longer than the back-off's
 * memory are forgotten.
 */
export const authAttempts = pgTable("auth_attempts", {
  key: text("key").primaryKey(),
  attempts: integer("attempts").notNull(),
  lastAttemptAt: tstz("last_attempt_at").notNull(),
  blockedUntil: tstz("blocked_until"),
});
