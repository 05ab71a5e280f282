/**
 * `layerline`: the command-line client of the Layerline API, built on the TypeScript SDK (sdk/).
 * Usage and exit codes: cli/README.md.
 */
import { parseArgs } from "node:util";
import { Layerline } from "../../sdk/src/client";
import { LayerlineError, LayerlineNetworkError } from "../../sdk/src/errors";
import { registerAuditSlot } from "./audit-slot";
import { registerAuth } from "./commands/auth";
import { registerDatasets } from "./commands/datasets";
import { registerDeploy } from "./commands/deploy";
import { registerProjects } from "./commands/projects";
import { registerPush } from "./commands/push";
import { registerTrain } from "./commands/train";
import { loadConfig } from "./config";
import { Output } from "./output";
import {
  AuthError,
  type CommandDefinition,
  type CommandRegistry,
  EXIT,
  type OptionSpec,
  UsageError,
} from "./registry";

const GLOBAL_OPTIONS: OptionSpec = {
  json: { type: "boolean" },
  url: { type: "string" },
  help: { type: "boolean", short: "h" },
};

export async function buildRegistry(): Promise<CommandDefinition[]> {
  const commands: CommandDefinition[] = [];
  const registry: CommandRegistry = {
    register(command) {
      if (commands.some((c) => c.name === command.name))
        throw new Error(`Command ${command.name} registered twice`);
      commands.push(command);
    },
  };
  for (const register of [
    registerAuth,
    registerProjects,
    registerDatasets,
    registerTrain,
    registerDeploy,
    registerPush,
  ])
    register(registry);
  // The audit workflow lives in its own module, written separately: wired when it exists.
  await registerAuditSlot(registry);
  return commands;
}

function usageLine(c: CommandDefinition): string {
  return `layerline ${c.name}${c.usage ? ` ${c.usage}` : ""}`;
}

function mainHelp(commands: CommandDefinition[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    "layerline: the Layerline command-line client",
    "",
    "Usage: layerline <command> [arguments] [--json] [--url <server>]",
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Global options:",
    "  --json         print one JSON document on stdout (for scripts)",
    "  --url <url>    the server (default: the logged-in one, LAYERLINE_URL, or http://localhost:3000)",
    "  -h, --help     help for a command",
    "",
    "Environment: LAYERLINE_API_KEY and LAYERLINE_URL override the config file.",
    "Exit codes: 0 ok, 1 usage, 2 API or network error, 3 authentication, 4 not found, 130 interrupted.",
  ].join("\n");
}

function commandHelp(c: CommandDefinition): string {
  const lines = [`Usage: ${usageLine(c)}`, "", c.summary];
  if (c.help) lines.push("", c.help);
  const opts = Object.entries(c.options ?? {});
  if (opts.length > 0) {
    lines.push("", "Options:");
    for (const [name, spec] of opts) lines.push(`  --${name}${spec.type === "string" ? " <value>" : ""}`);
  }
  lines.push("  --json", "  --url <url>");
  return lines.join("\n");
}

/** Finds the command whose words are the longest prefix of the positional words. */
function findCommand(commands: CommandDefinition[], argv: string[]) {
  const words = [];
  for (const a of argv) {
    if (a.startsWith("-")) break;
    words.push(a);
  }
  for (let n = Math.min(words.length, 3); n > 0; n--) {
    const name = words.slice(0, n).join(" ");
    const found = commands.find((c) => c.name === name);
    if (found) {
      const at = argv.indexOf(words[n - 1] as string);
      return {
        command: found,
        rest: [...argv.slice(0, argv.indexOf(words[0] as string)), ...argv.slice(at + 1)],
      };
    }
  }
  return null;
}

export async function main(argv: string[]): Promise<number> {
  const json = argv.includes("--json");
  const out = new Output(json);
  const commands = await buildRegistry();
  const wantsHelp = argv.length === 0 || argv[0] === "help" || argv[0] === "--help" || argv[0] === "-h";
  if (wantsHelp && !findCommand(commands, argv.slice(1))) {
    process.stdout.write(`${mainHelp(commands)}\n`);
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  const found = findCommand(commands, argv[0] === "help" ? argv.slice(1) : argv);
  if (!found) {
    out.error(`Unknown command: ${argv.filter((a) => !a.startsWith("-")).join(" ") || argv.join(" ")}`);
    out.error("Run `layerline --help` for the list of commands.");
    return EXIT.usage;
  }
  const { command, rest } = found;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    out.error(`${err instanceof Error ? err.message : String(err)}`);
    out.error(`Usage: ${usageLine(command)}`);
    return EXIT.usage;
  }
  if (parsed.values.help || argv[0] === "help") {
    process.stdout.write(`${commandHelp(command)}\n`);
    return EXIT.ok;
  }
  const config = await loadConfig(
    process.env,
    typeof parsed.values.url === "string" ? parsed.values.url : undefined,
  );
  const controller = new AbortController();
  try {
    const code = await command.run({
      args: parsed.positionals,
      options: parsed.values,
      json,
      out,
      config,
      signal: controller.signal,
      client: () => {
        if (!config.key)
          throw new AuthError("Not logged in: run `layerline login` or set LAYERLINE_API_KEY.");
        return new Layerline({
          baseUrl: config.url,
          apiKey: config.key,
          retry: {
            onRetry: (r) =>
              out.info(`(retrying ${r.method} after ${r.reason}, in ${(r.delayMs / 1000).toFixed(1)} s)`),
          },
        });
      },
    });
    return code ?? EXIT.ok;
  } catch (err) {
    return reportError(out, err, command);
  }
}

/** Prints an error helpfully (the problem body's title, detail and field errors) and maps it to an exit code. */
export function reportError(out: Output, err: unknown, command?: CommandDefinition): number {
  if (err instanceof UsageError) {
    out.error(`Error: ${err.message}`);
    if (command) out.error(`Usage: ${usageLine(command)}`);
    return EXIT.usage;
  }
  if (err instanceof AuthError) {
    printJsonError(out, { status: null, title: "Not authenticated", detail: err.message });
    return EXIT.auth;
  }
  if (err instanceof LayerlineError) {
    const code =
      err.status === 401 || err.status === 403 ? EXIT.auth : err.status === 404 ? EXIT.notFound : EXIT.api;
    if (out.json) {
      printJsonError(out, {
        status: err.status,
        title: err.title,
        detail: err.detail,
        errors: err.errors,
        request_id: err.requestId,
      });
    } else {
      out.error(`Error ${err.status} ${err.title}: ${err.detail}`);
      for (const e of err.errors) out.error(`  • ${e.path}: ${e.message}`);
      if (err.status === 401)
        out.error("  The key was refused: run `layerline login` with a valid personal key (lk_…).");
      if (err.requestId) out.error(`  (request id ${err.requestId})`);
    }
    return code;
  }
  if (err instanceof LayerlineNetworkError) {
    printJsonError(out, { status: null, title: "Network error", detail: err.message });
    return EXIT.api;
  }
  if (err instanceof Error && (err.name === "AbortError" || err.name === "InterruptedError")) {
    out.error("Interrupted.");
    return EXIT.interrupted;
  }
  printJsonError(out, {
    status: null,
    title: "Error",
    detail: err instanceof Error ? err.message : String(err),
  });
  return EXIT.api;
}

function printJsonError(out: Output, error: Record<string, unknown>) {
  if (out.json) out.error(JSON.stringify({ error }));
  else out.error(`Error: ${String(error.detail)}`);
}
