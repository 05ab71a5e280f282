/** Column definitions every table repeats. */
import { timestamp } from "drizzle-orm/pg-core";

/** Every timestamp is a timestamptz (stored in UTC), read as a Date. */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** When the row was created, set by the database. */
export const createdAt = () => tstz("created_at").notNull().defaultNow();

/** When the row was created and last changed. */
export const timestamps = () => ({
  createdAt: createdAt(),
  updatedAt: tstz("updated_at").notNull().defaultNow(),
});
