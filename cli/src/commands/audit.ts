/**
 * `layerline audit <calls.jsonl>`: the audit workflow through the HTTP API.
 *
 * Signature (what the CLI framework registers):
 *
 *   runAuditCommand(client: AuditClient, file: string, options: AuditCommandOptions, io: AuditIo)
 *     → Promise<AuditCommandResult>
 *
 * - `client`: an openapi-fetch client of `paths` from lib/api/schema (e.g. `createApiClient({ baseUrl })`
 *   from lib/api/client.ts with an `Authorization: Bearer <key>` middleware). Errors may be thrown by
 *   its middleware (ApiError) or returned as `{ error }`: both are handled.
 * - `file`: the log (format in README "Audits": the documented JSON Lines or OpenAI request/response pairs).
 * - `io`: how to read the file, print progress and wait (injectable for tests).
 * - Result: the audit id, the studio report path, the per-workload summary, and `exitCode`
 *   (0 completed, 1 the audit failed, 2 the log had no usable call).
 *
 * Flow: parse and group the calls (lib/audits) → POST /audits → a step per stage → each workload's
 * dataset → a candidate per workload (recipe + base model per task, lib/audits/candidates.ts) → wait
 * for the fine-tuning runs → evaluate each on the held-out calls → optionally deploy the best per
 * workload → POST /audits/{id}/complete with the summary.
 */
import type { Client } from "openapi-fetch";
import type { components, paths } from "../../../lib/api/schema";
import { type CandidateChoice, chooseCandidates } from "../../../lib/audits/candidates";
import { parseCallsJsonl } from "../../../lib/audits/parse-log";
import {
  type CandidateResult,
  summarizeWorkload,
  summaryText,
  type WorkloadSummary,
} from "../../../lib/audits/summary";
import type { AuditTask } from "../../../lib/audits/types";
import { groupWorkloads } from "../../../lib/audits/workloads";

export type AuditClient = Client<paths>;
type Schemas = components["schemas"];

export interface AuditCommandOptions {
  /** The audit's name (default: the file's name). */
  name?: string;
  /** Let the shared report show the calls' raw inputs (default false). */
  publishInputs?: boolean;
  /** Candidates per task (default: lib/audits/candidates.ts). */
  candidates?: Partial<Record<AuditTask, CandidateChoice[]>>;
  /** Only start candidates for workloads of these tasks (default: every task). */
  tasks?: AuditTask[];
  /** Override the runs' epochs (e.g. a quick audit). */
  epochs?: number;
  /** Deploy the best candidate of each workload. */
  deploy?: boolean;
  /** How often to poll the runs (default 2 s) and for how long at most (default 15 min). */
  pollIntervalMs?: number;
  runTimeoutMs?: number;
}

export interface AuditIo {
  readFile(path: string): Promise<string>;
  /** Progress lines (stderr in the CLI when --json). */
  log(message: string): void;
  sleep?(ms: number): Promise<void>;
}

export interface AuditCommandResult {
  exitCode: 0 | 1 | 2;
  audit_id: string | null;
  /** The studio page of the report (relative to the server's origin). */
  report_path: string | null;
  summary: WorkloadSummary[];
  deployments: { workload: string; deployment_id: string; api_key: string }[];
  errors: string[];
}

class CommandError extends Error {}

/** The data of an openapi-fetch result, or a CommandError with the problem's detail. */
function must<T>(r: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (r.data !== undefined && r.data !== null) return r.data;
  const problem = r.error as { detail?: string } | undefined;
  throw new CommandError(
    `${what} failed (${r.response.status}): ${problem?.detail ?? r.response.statusText}`,
  );
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function runAuditCommand(
  client: AuditClient,
  file: string,
  options: AuditCommandOptions,
  io: AuditIo,
): Promise<AuditCommandResult> {
  const sleep = io.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const result: AuditCommandResult = {
    exitCode: 0,
    audit_id: null,
    report_path: null,
    summary: [],
    deployments: [],
    errors: [],
  };
  const { calls, errors } = parseCallsJsonl(await io.readFile(file));
  for (const e of errors.slice(0, 10)) io.log(`line ${e.line}: ${e.message} (skipped)`);
  if (errors.length > 10) io.log(`… and ${errors.length - 10} more lines skipped`);
  const groups = groupWorkloads(calls).filter((g) => g.calls.length >= 2);
  if (groups.length === 0) {
    result.exitCode = 2;
    result.errors.push("The log has no workload with at least two calls.");
    return result;
  }
  io.log(
    `${calls.length} calls in ${groups.length} workload(s): ${groups.map((g) => `${g.name} (${g.calls.length})`).join(", ")}`,
  );

  const created = must(
    await client.POST("/api/v1/audits", {
      body: {
        name: options.name ?? file.split(/[\\/]/).pop() ?? "audit",
        source: file.split(/[\\/]/).pop() ?? "",
        publish_inputs: options.publishInputs ?? false,
        workloads: groups.map((g) => ({
          name: g.name,
          task: g.task,
          model: g.model,
          calls: g.calls.map((c) => ({
            input: c.input,
            output: c.output,
            latency_ms: c.latency_ms,
            cost: c.cost,
            timestamp: c.timestamp,
          })),
        })),
      },
    }),
    "Publishing the audit",
  );
  const auditId = created.id;
  result.audit_id = auditId;
  result.report_path = `/audits/${encodeURIComponent(auditId)}`;
  io.log(`audit ${auditId} published`);
  const path = { audit_id: auditId };
  const step = async (name: string, status: Schemas["CreateAuditStep"]["status"], message?: string) => {
    must(
      await client.POST("/api/v1/audits/{audit_id}/steps", {
        params: { path },
        body: { name, status, message },
      }),
      "Recording a step",
    );
  };

  try {
    await step(
      "parse",
      "succeeded",
      `${calls.length} calls, ${errors.length} skipped lines, ${groups.length} workloads`,
    );
    const wanted = options.tasks ?? ["classification", "generation"];
    const started: string[] = [];
    for (const w of created.workloads) {
      if (!wanted.includes(w.task)) {
        await step(`candidates:${w.name}`, "skipped", `No candidates for ${w.task} workloads in this run.`);
        continue;
      }
      const choices = options.candidates?.[w.task] ?? chooseCandidates(w.task);
      await step(`dataset:${w.name}`, "running");
      try {
        const ds = must(
          await client.POST("/api/v1/audits/{audit_id}/workloads/{workload_id}/dataset", {
            params: { path: { ...path, workload_id: w.id } },
            body: { base_model_id: choices[0]?.base_model_id },
          }),
          `The dataset of ${w.name}`,
        );
        await step(`dataset:${w.name}`, "succeeded", `${ds.rows} training calls → dataset ${ds.dataset_id}`);
      } catch (err) {
        await step(`dataset:${w.name}`, "failed", errorText(err));
        result.errors.push(errorText(err));
        continue;
      }
      for (const choice of choices) {
        const label = `candidate:${w.name}:${choice.recipe_id}`;
        try {
          const c = must(
            await client.POST("/api/v1/audits/{audit_id}/workloads/{workload_id}/candidates", {
              params: { path: { ...path, workload_id: w.id } },
              body: { ...choice, ...(options.epochs ? { config: { epochs: options.epochs } } : {}) },
            }),
            `Starting ${choice.recipe_id} on ${w.name}`,
          );
          started.push(c.id);
          await step(label, "running", `fine-tuning run ${c.run?.id ?? "?"} from ${choice.base_model_id}`);
          io.log(`${w.name}: candidate ${c.id} training (run ${c.run?.id ?? "?"})`);
        } catch (err) {
          await step(label, "failed", errorText(err));
          result.errors.push(errorText(err));
        }
      }
    }

    // Wait for the runs.
    const until = Date.now() + (options.runTimeoutMs ?? 15 * 60_000);
    let candidates: Schemas["AuditCandidate"][] = [];
    for (;;) {
      candidates = must(
        await client.GET("/api/v1/audits/{audit_id}/candidates", { params: { path } }),
        "Listing candidates",
      ).items;
      const training = candidates.filter((c) => c.state === "training");
      if (training.length === 0) break;
      if (Date.now() > until)
        throw new CommandError(`${training.length} run(s) still training after the timeout.`);
      await sleep(options.pollIntervalMs ?? 2000);
    }
    await step(
      "train",
      "succeeded",
      `${candidates.filter((c) => c.state === "trained").length} of ${candidates.length} runs succeeded`,
    );

    // Evaluate.
    for (const c of candidates) {
      if (c.state !== "trained") {
        if (c.state === "failed")
          result.errors.push(
            `Candidate ${c.id}: run ${c.run?.state ?? "missing"} ${c.run?.reason ?? ""}`.trim(),
          );
        continue;
      }
      try {
        const ev = must(
          await client.POST("/api/v1/audits/{audit_id}/candidates/{candidate_id}/evaluate", {
            params: { path: { ...path, candidate_id: c.id } },
          }),
          `Evaluating ${c.id}`,
        );
        const e = ev.evaluation;
        if (e)
          io.log(
            `candidate ${c.id}: ${e.metric} ${(e.quality * 100).toFixed(1)}% on ${e.calls} held-out calls, p50 ${e.latency_p50_ms.toFixed(1)} ms, $${e.cost_per_1k.toFixed(5)} / 1k calls`,
          );
      } catch (err) {
        result.errors.push(errorText(err));
      }
    }
    await step("evaluate", "succeeded");

    const report = must(
      await client.GET("/api/v1/audits/{audit_id}/report", { params: { path } }),
      "Reading the report",
    );
    result.summary = report.workloads.map((w) =>
      summarizeWorkload(
        w.name,
        w.current,
        w.candidates.map(
          (c): CandidateResult => ({
            id: c.id,
            recipe_id: c.recipe_id,
            base_model_id: c.base_model_id,
            quality: c.quality,
            latency_p50_ms: c.latency_p50_ms,
            cost_per_1k: c.cost_per_1k,
          }),
        ),
      ),
    );

    if (options.deploy) {
      for (const s of result.summary) {
        if (!s.best) continue;
        try {
          const d = must(
            await client.POST("/api/v1/audits/{audit_id}/candidates/{candidate_id}/deploy", {
              params: { path: { ...path, candidate_id: s.best.candidate_id } },
            }),
            `Deploying ${s.best.candidate_id}`,
          );
          result.deployments.push({
            workload: s.workload,
            deployment_id: d.deployment_id,
            api_key: d.api_key,
          });
          await step(`deploy:${s.workload}`, "succeeded", `deployment ${d.deployment_id}`);
        } catch (err) {
          await step(`deploy:${s.workload}`, "failed", errorText(err));
          result.errors.push(errorText(err));
        }
      }
    }

    const text = summaryText(result.summary);
    must(
      await client.POST("/api/v1/audits/{audit_id}/complete", {
        params: { path },
        body: {
          summary: { text, workloads: result.summary, errors: result.errors } as Record<string, unknown>,
          outcome: "completed",
        },
      }),
      "Completing the audit",
    );
    io.log(text);
    return result;
  } catch (err) {
    result.exitCode = 1;
    result.errors.push(errorText(err));
    try {
      await step("audit", "failed", errorText(err));
      await client.POST("/api/v1/audits/{audit_id}/complete", {
        params: { path },
        body: { summary: { text: errorText(err), workloads: result.summary }, outcome: "failed" },
      });
    } catch {
      // The audit stays running; the error is reported to the caller.
    }
    return result;
  }
}
