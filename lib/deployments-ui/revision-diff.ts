/**
 * What a deployment revision changed against the one before it: the model it serves (the job or
 * model version) and each setting. Revisions come newest first (GET …/revisions).
 */

export interface RevisionLike {
  number: number;
  job_id: string | null;
  model_version_id?: string | null;
  artifact_format: string;
  settings: Record<string, unknown>;
}

export type RevisionChange =
  | { kind: "first" }
  | { kind: "model"; from: string | null; to: string | null }
  | { kind: "format"; from: string; to: string }
  | { kind: "setting"; name: string; from: unknown; to: unknown };

function modelOf(r: RevisionLike): string | null {
  return r.model_version_id ?? r.job_id;
}

export function revisionChanges(
  revision: RevisionLike,
  previous: RevisionLike | undefined,
): RevisionChange[] {
  if (!previous) return [{ kind: "first" }];
  const changes: RevisionChange[] = [];
  if (modelOf(revision) !== modelOf(previous))
    changes.push({ kind: "model", from: modelOf(previous), to: modelOf(revision) });
  if (revision.artifact_format !== previous.artifact_format)
    changes.push({ kind: "format", from: previous.artifact_format, to: revision.artifact_format });
  const names = [...new Set([...Object.keys(previous.settings), ...Object.keys(revision.settings)])].sort();
  for (const name of names) {
    const from = previous.settings[name];
    const to = revision.settings[name];
    if (JSON.stringify(from) !== JSON.stringify(to)) changes.push({ kind: "setting", name, from, to });
  }
  return changes;
}

/** Every revision (newest first) with its changes against the next older one. */
export function withChanges<R extends RevisionLike>(
  newestFirst: readonly R[],
): { revision: R; changes: RevisionChange[] }[] {
  return newestFirst.map((revision, i) => ({
    revision,
    changes: revisionChanges(revision, newestFirst[i + 1]),
  }));
}
