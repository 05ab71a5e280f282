import type { z } from "@hono/zod-openapi";
import type { Db } from "../../db/client";
import { PayloadTooLargeError, PaymentRequiredError, type StorageQuotaError } from "../../errors";
import { planOf } from "../../plans";
import {
  quotaExceeded,
  STORAGE_KINDS,
  storageBreakdown,
  storageLimitBytes,
  storageUsedBytes,
} from "../account/storage-quota";
import type { quotaSchema } from "./datasets.schemas";

export { quotaExceeded, storageUsedBytes };

/**
 * Size limits of dataset files (contract §7, §8): 413 above the overall cap (500 MB), 402 when the
 * plan's per-file limit is reached before that cap, 402 when the file would not fit in the storage
 * quota. Environment overrides exist for tests and operators:
 *   DATASET_MAX_FILE_BYTES     the overall cap (default 500 MB)
 *   DATASET_UPLOAD_FILE_BYTES  the per-file limit of every plan
 *   STORAGE_QUOTA_BYTES        the storage quota of every plan (older name: DATASET_STORAGE_BYTES)
 * The storage quota counts every byte the user stores, not only datasets (modules/account/storage-quota.ts).
 */
export const DATASET_FILE_CAP_BYTES = 500 * 1024 * 1024;

/** Multipart framing and the small text fields beside the file, allowed for in Content-Length checks. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

function envBytes(name: string, env: NodeJS.ProcessEnv): number | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export function fileCapBytes(env: NodeJS.ProcessEnv = process.env): number {
  return envBytes("DATASET_MAX_FILE_BYTES", env) ?? DATASET_FILE_CAP_BYTES;
}

export function planFileBytes(plan: string, env: NodeJS.ProcessEnv = process.env): number {
  return envBytes("DATASET_UPLOAD_FILE_BYTES", env) ?? planOf(plan).limits.upload_file_bytes;
}

export function planStorageBytes(plan: string, env: NodeJS.ProcessEnv = process.env): number {
  return storageLimitBytes(plan, env);
}

export type QuotaView = z.infer<typeof quotaSchema>;

export async function storageQuota(db: Db, user: { id: string; plan: string }): Promise<QuotaView> {
  const breakdown = await storageBreakdown(db, user.id);
  const used = STORAGE_KINDS.reduce((sum, k) => sum + breakdown[k], 0);
  const limit = planStorageBytes(user.plan);
  return {
    used_bytes: used,
    limit_bytes: limit,
    per_file_limit_bytes: Math.min(fileCapBytes(), planFileBytes(user.plan)),
    remaining_bytes: Math.max(0, limit - used),
    breakdown,
  };
}

const MB = 1024 * 1024;
function human(bytes: number): string {
  return bytes >= MB ? `${Math.round((bytes / MB) * 10) / 10} MB` : `${bytes} bytes`;
}

/**
 * The limits one incoming file is held to; `check` is called with the running byte count and throws
 * as soon as a limit is crossed (the smallest one crossed decides the status).
 */
export class FileBudget {
  constructor(
    readonly capBytes: number,
    readonly planFileBytes: number,
    readonly remainingBytes: number,
    /** The storage quota's figures, for the 402 problem. */
    readonly usedBytes = 0,
    readonly limitBytes = remainingBytes,
  ) {}

  static async forUser(db: Db, user: { id: string; plan: string }): Promise<FileBudget> {
    const used = await storageUsedBytes(db, user.id);
    const limit = planStorageBytes(user.plan);
    return new FileBudget(fileCapBytes(), planFileBytes(user.plan), Math.max(0, limit - used), used, limit);
  }

  /** The most bytes a file may have. */
  get maxBytes(): number {
    return Math.min(this.capBytes, this.planFileBytes, this.remainingBytes);
  }

  check(bytes: number): void {
    if (bytes <= this.maxBytes) return;
    const crossed = [
      { at: this.capBytes, err: () => this.tooLarge() },
      { at: this.planFileBytes, err: () => this.overPlan() },
      { at: this.remainingBytes, err: () => this.overQuota(bytes) },
    ]
      .filter((l) => bytes > l.at)
      .sort((a, b) => a.at - b.at);
    throw crossed[0].err();
  }

  /** Early refusal from a declared length (Content-Length, or a server's for URL fetches). */
  checkDeclared(declaredBytes: number, overhead = 0): void {
    this.check(declaredBytes - overhead);
  }

  tooLarge(): PayloadTooLargeError {
    return new PayloadTooLargeError(`Dataset files are limited to ${human(this.capBytes)}.`);
  }

  overPlan(): PaymentRequiredError {
    return new PaymentRequiredError(
      `Your plan allows dataset files of up to ${human(this.planFileBytes)}; upgrade to upload larger files.`,
    );
  }

  overQuota(requestedBytes?: number, usedBytes = this.usedBytes): StorageQuotaError {
    return quotaExceeded(usedBytes, this.limitBytes, requestedBytes ?? this.remainingBytes + 1);
  }
}
