/**
 * The audit workflow's data, shared by the CLI (cli/src/commands/audit.ts), the server
 * (lib/server/modules/audits) and the studio. Pure: no I/O.
 */

/** A chat message of an OpenAI-style request. */
export interface ChatMessage {
  role: string;
  content: string;
}

/** What a logged call was given: text, chat messages, or a feature object. */
export type CallInput = string | ChatMessage[] | Record<string, unknown>;

/** One logged call, normalised from either accepted line format. */
export interface LoggedCall {
  input: CallInput;
  /** The input as one text (a chat's user turns joined; a feature object as `key=value` pairs). */
  input_text: string;
  output: string;
  /** Milliseconds the call took, or null when not logged (a bare OpenAI pair). */
  latency_ms: number | null;
  /** What the call cost (in the log's currency, usually USD), or null when not logged. */
  cost: number | null;
  model: string;
  /** ISO 8601, or null when not logged. */
  timestamp: string | null;
  /** A task the log declares for the call, if any. */
  task: AuditTask | null;
}

export type AuditTask = "classification" | "generation";

export interface ParseError {
  line: number;
  message: string;
}

export interface ParsedLog {
  calls: LoggedCall[];
  errors: ParseError[];
}

/** Calls of one model and one task. */
export interface WorkloadGroup {
  name: string;
  model: string;
  task: AuditTask;
  calls: LoggedCall[];
  /** Classification: the distinct outputs (class names), sorted. */
  labels: string[] | null;
}
