import { hash, verify } from "@node-rs/argon2";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { sessions, type UserRow, users } from "../../db/schema";
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from "../../errors";
import { newId } from "../../ids";
import { PLANS, type PlanDefinition, type PlanId } from "../../plans";
import { hashSecret, newSecret } from "../../secrets";
import { grantCredits } from "./credits";

export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
// A hash to verify against when the user does not exist, so a login takes as long either way.
const DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$ZXhhbXBsZWhhc2hleGFtcGxlaGFzaGV4YW1wbGU";

export interface PublicUser {
  id: string;
  email: string;
  username: string;
  display_name: string | null;
  plan: "free" | "pro" | "team";
  created_at: string;
}

export function toPublicUser(u: UserRow): PublicUser {
  return {
    id: u.id,
    email: u.email,
    username: u.username,
    display_name: u.displayName,
    plan: u.plan,
    created_at: u.createdAt.toISOString(),
  };
}

/** The plan of new accounts: DEFAULT_PLAN (free | pro | team), free when unset or unknown. */
export function defaultPlan(env: NodeJS.ProcessEnv = process.env): PlanDefinition {
  const wanted = env.DEFAULT_PLAN?.trim().toLowerCase();
  return wanted && wanted in PLANS ? PLANS[wanted as PlanId] : PLANS.free;
}

/** Changes an account's plan (operators: `npm run admin -- set-plan <username> <plan>`). */
export async function setPlan(db: Db, username: string, planId: string): Promise<UserRow> {
  if (!(planId in PLANS))
    throw new ValidationError(`Unknown plan "${planId}"; one of ${Object.keys(PLANS).join(", ")}.`);
  const [row] = await db
    .update(users)
    .set({ plan: planId as PlanId, updatedAt: new Date() })
    .where(sql`lower(${users.username}) = lower(${username})`)
    .returning();
  if (!row) throw new NotFoundError(`User ${username}`);
  return row;
}

export async function signUp(
  db: Db,
  input: { email: string; username: string; password: string; display_name?: string },
): Promise<UserRow> {
  const taken = await db
    .select({ email: users.email, username: users.username })
    .from(users)
    .where(
      sql`lower(${users.email}) = lower(${input.email}) or lower(${users.username}) = lower(${input.username})`,
    );
  if (taken.some((t) => t.email.toLowerCase() === input.email.toLowerCase()))
    throw new ConflictError("An account with this e-mail address already exists.");
  if (taken.length > 0) throw new ConflictError("This username is taken.");
  const passwordHash = await hash(input.password);
  const id = newId("usr");
  const plan = defaultPlan();
  try {
    const [row] = await db
      .insert(users)
      .values({
        id,
        email: input.email,
        username: input.username,
        displayName: input.display_name ?? null,
        passwordHash,
        plan: plan.id,
      })
      .returning();
    await grantCredits(db, id, plan.monthly_credits, "Welcome credits");
    return row;
  } catch (err) {
    // Two signups racing for the same name: the unique index decides.
    if (String((err as { code?: string }).code) === "23505" || /unique/i.test(String(err)))
      throw new ConflictError("An account with this e-mail address or username already exists.");
    throw err;
  }
}

/** The account an e-mail address or username names (either, any case, surrounding spaces ignored). */
export async function findUserByLogin(db: Db, login: string): Promise<UserRow | null> {
  const name = login.trim();
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${name}) or lower(${users.username}) = lower(${name})`)
    .limit(1);
  return user ?? null;
}

/** Checks a password against the account (or against a dummy hash without one: the same time either way). */
export async function passwordMatches(user: UserRow | null, password: string): Promise<boolean> {
  const ok = await verify(user?.passwordHash ?? DUMMY_HASH, password).catch(() => false);
  return Boolean(user && ok);
}

export async function verifyLogin(db: Db, login: string, password: string): Promise<UserRow> {
  const user = await findUserByLogin(db, login);
  if (!user || !(await passwordMatches(user, password)))
    throw new UnauthorizedError("Wrong e-mail/username or password.");
  return user;
}

export async function createSession(
  db: Db,
  userId: string,
  userAgent?: string,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newSecret("lss_", 43);
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await db.insert(sessions).values({
    id: newId("ses"),
    userId,
    tokenHash: hashSecret(token),
    expiresAt,
    userAgent: userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt };
}

export async function userForSession(db: Db, token: string): Promise<UserRow | null> {
  const rows = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashSecret(token)), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return rows[0]?.user ?? null;
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashSecret(token)));
}

export async function findUserByUsername(db: Db, username: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return row ?? null;
}
