/**
 * What else moves when an alias moves. The registry sits below deployments (../shared/STYLE.md,
 * "Server modules"), so it cannot call them: deployments register a follower at start
 * (deployments.index.ts), and setting an alias calls every follower. The list is wiring made at
 * import time, the same in every process; nothing in it is state.
 */
import type { Db } from "../../db/client";

/** Called after an alias moved; returns the ids of what it updated (e.g. deployments). */
export type AliasFollower = (
  db: Db,
  ownerId: string,
  modelId: string,
  alias: string,
  versionId: string,
) => Promise<string[]>;

const followers: AliasFollower[] = [];

export function registerAliasFollower(follower: AliasFollower): void {
  if (!followers.includes(follower)) followers.push(follower);
}

/** Runs every follower in turn; the ids they updated, in order. */
export async function followAliasMove(
  db: Db,
  ownerId: string,
  modelId: string,
  alias: string,
  versionId: string,
): Promise<string[]> {
  const updated: string[] = [];
  for (const follow of followers) updated.push(...(await follow(db, ownerId, modelId, alias, versionId)));
  return updated;
}
