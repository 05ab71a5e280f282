import type { z } from "zod";
import type { Db } from "../db/client";

/** What a job handler gets besides its payload. */
export interface JobContext {
  readonly db: Db;
  readonly jobId: string;
  /** 1 on the first run, 2 on the first retry, and so on. */
  readonly attempt: number;
  /**
   * Aborted when the job should stop: cancellation was requested (seen at once in this process, or
   * through the heartbeat from another one), the runner lost the job, or a graceful stop ran out of time.
   * Pass it to fetch, child processes and loops; throwing after it fired is the expected way to stop.
   */
  readonly signal: AbortSignal;
  /** True once `signal` fired. */
  isCancelled(): boolean;
  /**
   * Records progress (a fraction 0..1, clamped) and an optional message. Cheap to call often: writes
   * are throttled, the latest value always lands. Awaiting it is optional.
   */
  reportProgress(fraction: number, message?: string): Promise<void>;
  /** A line in the server log, prefixed with the job id and type. */
  log(message: string): void;
}

/**
 * A kind of background job. The payload schema validates on enqueue and again on claim, so a handler
 * always receives a well-formed payload even after a deploy changed the schema. Payloads are stored as
 * the schema's output, so a schema must accept its own output (defaults are fine, transforms are not).
 */
export interface JobType<S extends z.ZodType = z.ZodType, R = unknown> {
  readonly type: string;
  readonly payload: S;
  /**
   * Runs for minutes or hours (training): taken by its own lane of runners, so that such jobs never
   * hold every slot while short jobs (code generation, dataset scans) wait behind them.
   */
  readonly long?: boolean;
  run(payload: z.output<S>, ctx: JobContext): Promise<R>;
}

const registry = globalThis as unknown as { __layerlineJobTypes?: Map<string, JobType> };

function jobTypes(): Map<string, JobType> {
  registry.__layerlineJobTypes ??= new Map();
  return registry.__layerlineJobTypes;
}

/**
 * Defines and registers a job type (module scope, e.g. `lib/server/modules/codegen/codegen-job.ts`, imported
 * from lib/server/job-types.ts so that every runner knows it). Returns the definition, which
 * `enqueueJob` takes for a typed payload. Defining a type again replaces it (module reloads in dev).
 */
export function defineJobType<S extends z.ZodType, R>(definition: {
  type: string;
  payload: S;
  long?: boolean;
  run: (payload: z.output<S>, ctx: JobContext) => Promise<R>;
}): JobType<S, R> {
  if (!/^[a-z0-9][a-z0-9_.-]{0,99}$/i.test(definition.type)) {
    throw new Error(`Invalid job type name "${definition.type}"`);
  }
  const jobType: JobType<S, R> = Object.freeze({ ...definition });
  jobTypes().set(jobType.type, jobType as unknown as JobType);
  return jobType;
}

export function findJobType(type: string): JobType | undefined {
  return jobTypes().get(type);
}

export function registeredJobTypes(filter?: { long: boolean }): string[] {
  return [...jobTypes().values()]
    .filter((t) => filter === undefined || Boolean(t.long) === filter.long)
    .map((t) => t.type);
}
