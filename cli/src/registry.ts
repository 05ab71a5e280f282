/**
 * How commands plug into `layerline`. A command module exports a function that receives the
 * registry and calls `register` once per (sub)command; `cli/src/main.ts` wires the built-in ones
 * and, when present, `cli/src/commands/audit.ts` (`export function registerAudit(registry)`).
 */
import type { ParseArgsConfig } from "node:util";
import type { Layerline } from "../../sdk/src/client";
import type { CliConfig } from "./config";
import type { Output } from "./output";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface CommandContext {
  /** Positional arguments after the command's name. */
  args: string[];
  /** Parsed options (`--epochs 5` → `options.epochs === "5"`). */
  options: OptionValues;
  /** `--json`: print one JSON document on stdout, nothing else. */
  json: boolean;
  out: Output;
  /** The resolved configuration (config file, then LAYERLINE_URL / LAYERLINE_API_KEY, then --url). */
  config: CliConfig;
  /** An SDK client with the configured key; throws an AuthError (exit 3) when there is none. */
  client(): Layerline;
  /** Aborted on Ctrl-C (commands with their own SIGINT handling may ignore it). */
  signal: AbortSignal;
}

export interface CommandDefinition {
  /** Words of the command, e.g. "datasets upload". */
  name: string;
  summary: string;
  /** The argument part of the usage line, e.g. "<file> [--name <name>]". */
  usage?: string;
  /** Longer help text shown by `layerline <command> --help`. */
  help?: string;
  options?: OptionSpec;
  /** Returns the exit code (default 0). */
  run(ctx: CommandContext): Promise<number | undefined>;
}

export interface CommandRegistry {
  register(command: CommandDefinition): void;
}

/** What a command module exports: `export const registerX: RegisterCommands = (registry) => …`. */
export type RegisterCommands = (registry: CommandRegistry) => void;

/** Exit codes (documented in cli/README.md). */
export const EXIT = {
  ok: 0,
  usage: 1,
  api: 2,
  auth: 3,
  notFound: 4,
  interrupted: 130,
} as const;

/** Bad arguments: exit 1 with the command's usage. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** No usable credential: exit 3. */
export class AuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AuthError";
  }
}

export function stringOption(options: OptionValues, name: string): string | undefined {
  const v = options[name];
  return typeof v === "string" ? v : undefined;
}

export function numberOption(options: OptionValues, name: string): number | undefined {
  const v = stringOption(options, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} takes a number, not “${v}”.`);
  return n;
}

export function requireOption(options: OptionValues, name: string): string {
  const v = stringOption(options, name);
  if (!v) throw new UsageError(`--${name} is required.`);
  return v;
}
