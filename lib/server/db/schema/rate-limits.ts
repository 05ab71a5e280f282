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
