/** Where a read-only project comes from: a share link, or its owner's public profile. */
export type ImportSource = { token: string } | { username: string; projectId: string };

/** The page a visitor returns to after signing in. */
export function sourcePath(source: ImportSource): string {
  return "token" in source ? `/shared/${source.token}` : `/u/${source.username}/projects/${source.projectId}`;
}
