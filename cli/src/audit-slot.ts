/**
 * The `audit` slot. The audit workflow is written separately in cli/src/commands/audit.ts; it plugs
 * in either way:
 * - `export function registerAudit(registry: CommandRegistry)` (the general interface of
 *   cli/src/registry.ts): called at start-up, it registers whatever commands it likes; or
 * - `export async function runAuditCommand(client, file, options, io)` (the workflow alone): the
 *   `layerline audit` command below adapts it (options, output, exit codes) and loads it only when
 *   run, so a problem in that module never breaks the other commands.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Client } from "openapi-fetch";
import type { paths } from "../../lib/api/schema";
import {
  type CommandRegistry,
  EXIT,
  numberOption,
  type RegisterCommands,
  stringOption,
  UsageError,
} from "./registry";

interface AuditResult {
  exitCode: number;
  audit_id: string | null;
  report_path: string | null;
  deployments: { workload: string; deployment_id: string; api_key: string }[];
  errors: string[];
}

interface AuditModule {
  registerAudit?: RegisterCommands;
  runAuditCommand?: (
    client: Client<paths>,
    file: string,
    options: { name?: string; publishInputs?: boolean; epochs?: number; deploy?: boolean },
    io: { readFile(path: string): Promise<string>; log(message: string): void },
  ) => Promise<AuditResult>;
}

const auditFile = path.join(path.dirname(fileURLToPath(import.meta.url)), "commands", "audit.ts");
const load = async () => (await import(pathToFileURL(auditFile).href)) as AuditModule;

export async function registerAuditSlot(registry: CommandRegistry): Promise<void> {
  if (!existsSync(auditFile)) return;
  const source = await readFile(auditFile, "utf8");
  if (/export\s+(async\s+)?(function|const)\s+registerAudit\b/.test(source)) {
    (await load()).registerAudit?.(registry);
    return;
  }
  if (!/export\s+async\s+function\s+runAuditCommand\b/.test(source)) return;
  registry.register({
    name: "audit",
    summary: "Audit a log of model or API calls: publish it, train cheaper candidates, compare them",
    usage: "<calls.jsonl> [--name <name>] [--epochs <n>] [--deploy] [--publish-inputs]",
    help: "The log format is documented in the README (“Audits”). Progress goes to stderr; the result (audit id, report path, deployments) to stdout.",
    options: {
      name: { type: "string" },
      epochs: { type: "string" },
      deploy: { type: "boolean" },
      "publish-inputs": { type: "boolean" },
    },
    async run({ args, options, client, out, config }) {
      const [file] = args;
      if (!file || args.length > 1) throw new UsageError("Give the call log (JSON Lines).");
      if (!existsSync(file)) throw new UsageError(`Cannot read ${file}.`);
      const api = client().api;
      const run = (await load()).runAuditCommand;
      if (!run) throw new Error("The audit module does not export runAuditCommand.");
      const result = await run(
        api,
        file,
        {
          name: stringOption(options, "name"),
          epochs: numberOption(options, "epochs"),
          deploy: Boolean(options.deploy),
          publishInputs: Boolean(options["publish-inputs"]),
        },
        { readFile: (p) => readFile(p, "utf8"), log: (m) => process.stderr.write(`${m}\n`) },
      );
      out.result(result, () =>
        [
          result.audit_id ? `Audit ${result.audit_id}` : "No audit published.",
          ...(result.report_path ? [`Report: ${config.url}${result.report_path}`] : []),
          ...result.deployments.map(
            (d) => `Deployed ${d.workload}: ${d.deployment_id} (key, shown once: ${d.api_key})`,
          ),
          ...result.errors.map((e) => `Error: ${e}`),
        ].join("\n"),
      );
      // The workflow's codes: 0 completed, 1 the audit failed, 2 the log had no usable call.
      return result.exitCode === 0 ? EXIT.ok : result.exitCode === 2 ? EXIT.usage : EXIT.api;
    },
  });
}
