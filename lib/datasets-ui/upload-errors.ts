import { formatBytes } from "./format";

/** What the upload dialog says when a file is refused, before sending it or from the server's answer. */

export interface ProblemLike {
  title?: string;
  detail?: string;
  errors?: { path: string; message: string }[];
}

export interface UploadErrorView {
  title: string;
  message: string;
  /** Per-field messages (422), keyed by form field ("name", "description", "file"). */
  fields: Record<string, string>;
  /** Worth pointing at the plan (402). */
  upgrade: boolean;
}

function fieldOf(path: string): string {
  const last = path.replace(/^body\./, "").split(".")[0];
  return last || "form";
}

export function describeUploadError(status: number, problem: ProblemLike | null): UploadErrorView {
  const detail = problem?.detail?.trim();
  const fields: Record<string, string> = {};
  for (const e of problem?.errors ?? []) fields[fieldOf(e.path)] ??= e.message;
  switch (status) {
    case 0:
      return {
        title: "Upload interrupted",
        message: "The connection to the server was lost. Check your network and try again.",
        fields,
        upgrade: false,
      };
    case 402:
      return {
        title: "Over your plan's limits",
        message: detail ?? "The file is larger than your plan allows or does not fit in your storage quota.",
        fields,
        upgrade: true,
      };
    case 413:
      return {
        title: "File too large",
        message: detail ?? "The file is larger than the server accepts.",
        fields,
        upgrade: false,
      };
    case 422: {
      const listed = Object.entries(fields)
        .filter(([, m]) => !detail?.includes(m))
        .map(([f, m]) => (f === "form" ? m : `${f}: ${m}`))
        .join(" ");
      return {
        title: "The file could not be used",
        message: [detail, listed].filter(Boolean).join(" ") || "The server could not read this file.",
        fields,
        upgrade: false,
      };
    }
    case 401:
      return {
        title: "Signed out",
        message: "Your session has ended. Sign in again to upload.",
        fields,
        upgrade: false,
      };
    default:
      return {
        title: status >= 500 ? "Server error" : "Upload refused",
        message: detail ?? `The server answered with status ${status}.`,
        fields,
        upgrade: false,
      };
  }
}

export interface QuotaLike {
  per_file_limit_bytes: number;
  remaining_bytes: number;
}

/** A reason not to send the file at all, or null. */
export function precheckFile(size: number, quota: QuotaLike | undefined): UploadErrorView | null {
  if (size === 0)
    return {
      title: "Empty file",
      message: "The file has no content.",
      fields: { file: "Empty" },
      upgrade: false,
    };
  if (!quota) return null;
  if (size > quota.per_file_limit_bytes)
    return {
      title: "File too large for your plan",
      message: `This file is ${formatBytes(size)}; your plan accepts files up to ${formatBytes(quota.per_file_limit_bytes)}.`,
      fields: {},
      upgrade: true,
    };
  if (size > quota.remaining_bytes)
    return {
      title: "Not enough storage left",
      message: `This file is ${formatBytes(size)} and ${formatBytes(quota.remaining_bytes)} of your storage is left. Delete datasets or upgrade your plan.`,
      fields: {},
      upgrade: true,
    };
  return null;
}

export type QuotaTone = "ok" | "warn" | "danger";

/** Share of the quota in use (0..1) and how worried to look about it. */
export function quotaUsage(used: number, limit: number): { share: number; tone: QuotaTone } {
  const share = limit > 0 ? Math.min(1, used / limit) : 1;
  return { share, tone: share >= 0.95 ? "danger" : share >= 0.8 ? "warn" : "ok" };
}
