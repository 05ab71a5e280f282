import { createInterface } from "node:readline";
import type { CreateTrainingJobBody, Layerline, Schemas, TrainingJob } from "../../../sdk/src/client";
import type { ServerEvent } from "../../../sdk/src/sse";
import type { Output } from "../output";
import { table } from "../output";
import {
  type CommandRegistry,
  EXIT,
  numberOption,
  type OptionValues,
  requireOption,
  stringOption,
  UsageError,
} from "../registry";

const RUNTIMES = ["auto", "pytorch", "tfjs", "external"] as const;
const STATES = ["queued", "running", "succeeded", "failed", "cancelled", "timed_out"] as const;

function fmt(n: number): string {
  return Math.abs(n) >= 100 || Number.isInteger(n) ? String(n) : n.toPrecision(4);
}

/** Renders a job's events in the terminal: status lines, a progress bar, the latest metrics. */
class JobView {
  private readonly metrics = new Map<string, number>();
  private lastEpoch = -1;

  constructor(private readonly out: Output) {}

  private metricText(): string {
    return [...this.metrics].map(([k, v]) => `${k}=${fmt(v)}`).join(" ");
  }

  onEvent(event: ServerEvent): void {
    const data = (event.data ?? {}) as Record<string, unknown>;
    if (event.event === "status") {
      const reason = typeof data.reason === "string" && data.reason ? ` (${data.reason})` : "";
      this.out.info(`● ${String(data.status)}${reason}`);
    } else if (event.event === "metric" && typeof data.name === "string" && typeof data.value === "number") {
      this.metrics.set(data.name, data.value);
    } else if (event.event === "progress") {
      const epoch = Number(data.epoch);
      const epochs = Number(data.epochs);
      const step = Number(data.step);
      const steps = Number(data.steps);
      if (epoch !== this.lastEpoch && this.lastEpoch >= 0 && this.metrics.size > 0)
        this.out.info(`  epoch ${this.lastEpoch}/${epochs}  ${this.metricText()}`);
      this.lastEpoch = epoch;
      const done = steps > 0 ? (epoch - 1) * steps + step : epoch;
      const total = steps > 0 ? epochs * steps : epochs;
      this.out.progress("  training", done, total, `epoch ${epoch}/${epochs} ${this.metricText()}`);
    } else if (event.event === "log" && (data.level === "error" || data.level === "warning")) {
      this.out.info(`  [${String(data.level)}] ${String(data.message)}`);
    } else if (event.event === "checkpoint") {
      this.out.info(`  checkpoint saved${typeof data.epoch === "number" ? ` (epoch ${data.epoch})` : ""}`);
    }
  }
}

async function ask(question: string): Promise<boolean | null> {
  if (!process.stdin.isTTY) return null;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string | null>((resolve) => {
      rl.question(question, resolve);
      rl.once("SIGINT", () => resolve(null));
      rl.once("close", () => resolve(null));
    });
    return answer === null ? null : /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

function summary(job: TrainingJob): string {
  const metrics = Object.entries(job.metrics)
    .map(([k, v]) => `${k}=${fmt(v)}`)
    .join(" ");
  return [
    `Job ${job.id} (${job.name}): ${job.state}${job.reason ? ` (${job.reason})` : ""}`,
    `  project  ${job.project_name} (${job.project_id})`,
    `  dataset  ${job.dataset_id}`,
    `  runtime  ${job.resolved_runtime ?? job.runtime}`,
    ...(job.progress ? [`  progress epoch ${job.progress.epoch}/${job.progress.epochs}`] : []),
    ...(metrics ? [`  metrics  ${metrics}`] : []),
    ...(job.artifact
      ? [`  artifact ${job.artifact.format}: ${job.artifact.files.map((f) => f.name).join(", ")}`]
      : []),
  ].join("\n");
}

/**
 * Follows a job live. Ctrl-C stops following and asks whether to cancel the job (with no terminal
 * to ask on, the job keeps running). Returns the exit code.
 */
async function follow(client: Layerline, job: TrainingJob, out: Output): Promise<number> {
  const view = new JobView(out);
  const controller = new AbortController();
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
    controller.abort(new Error("interrupted"));
  };
  process.once("SIGINT", onSigint);
  try {
    const finished = await client.followJob(job.id, {
      signal: controller.signal,
      onEvent: (e) => view.onEvent(e),
    });
    out.result(finished, () => summary(finished));
    return finished.state === "succeeded" ? EXIT.ok : EXIT.api;
  } catch (err) {
    if (!interrupted) throw err;
    out.info("");
    const cancel = await ask(`Cancel training job ${job.id}? [y/N] `);
    if (cancel) {
      await client.api.POST("/api/v1/training/jobs/{job_id}/cancel", {
        params: { path: { job_id: job.id } },
      });
      out.info(`Cancellation requested for ${job.id}.`);
    } else {
      out.info(
        `Job ${job.id} keeps running: \`layerline jobs show ${job.id}\`, \`layerline jobs cancel ${job.id}\`.`,
      );
    }
    if (out.json) out.result(await client.getJob(job.id), () => "");
    return EXIT.interrupted;
  } finally {
    process.off("SIGINT", onSigint);
  }
}

function jobBody(options: OptionValues): CreateTrainingJobBody {
  const runtime = stringOption(options, "runtime");
  if (runtime && !(RUNTIMES as readonly string[]).includes(runtime))
    throw new UsageError(`--runtime is one of ${RUNTIMES.join(", ")}.`);
  const config: Schemas["TrainingJobConfigInput"] = {};
  const epochs = numberOption(options, "epochs");
  const batch = numberOption(options, "batch-size");
  const lr = numberOption(options, "learning-rate");
  if (epochs !== undefined) config.epochs = epochs;
  if (batch !== undefined) config.batch_size = batch;
  if (lr !== undefined) config.learning_rate = lr;
  const name = stringOption(options, "name");
  const recipe = stringOption(options, "recipe");
  return {
    project_id: requireOption(options, "project"),
    dataset_id: requireOption(options, "dataset"),
    ...(name ? { name } : {}),
    ...(recipe ? { recipe_id: recipe } : {}),
    ...(runtime ? { runtime: runtime as (typeof RUNTIMES)[number] } : {}),
    ...(Object.keys(config).length > 0 ? { config } : {}),
  };
}

export function registerTrain(registry: CommandRegistry): void {
  registry.register({
    name: "train",
    summary: "Start a training job and follow it live (Ctrl-C asks whether to cancel it)",
    usage:
      "--project <id> --dataset <id> [--runtime auto|pytorch|tfjs|external] [--epochs <n>] [--batch-size <n>] [--learning-rate <x>] [--name <name>] [--recipe <id>] [--detach]",
    options: {
      project: { type: "string" },
      dataset: { type: "string" },
      runtime: { type: "string" },
      epochs: { type: "string" },
      "batch-size": { type: "string" },
      "learning-rate": { type: "string" },
      name: { type: "string" },
      recipe: { type: "string" },
      detach: { type: "boolean" },
    },
    async run({ client, options, out }) {
      const c = client();
      const job = await c.createTrainingJob(jobBody(options));
      if (options.detach) {
        out.result(job, () => summary(job));
        return EXIT.ok;
      }
      out.info(`Job ${job.id} queued (${job.name}). Following it; Ctrl-C to stop.`);
      return follow(c, job, out);
    },
  });

  registry.register({
    name: "jobs list",
    summary: "List training jobs",
    usage: "[--state <state>] [--project <id>] [--max <n>]",
    options: { state: { type: "string" }, project: { type: "string" }, max: { type: "string" } },
    async run({ client, options, out }) {
      const state = stringOption(options, "state");
      if (state && !(STATES as readonly string[]).includes(state))
        throw new UsageError(`--state is one of ${STATES.join(", ")}.`);
      const project = stringOption(options, "project");
      const max = numberOption(options, "max") ?? 100;
      const items: TrainingJob[] = [];
      for await (const job of client().paginate("/api/v1/training/jobs", {
        ...(state ? { state: state as (typeof STATES)[number] } : {}),
        ...(project ? { project_id: project } : {}),
      })) {
        if (items.length >= max) break;
        items.push(job);
      }
      out.result(items, () =>
        table(
          ["ID", "NAME", "STATE", "RUNTIME", "CREATED"],
          items.map((j) => [
            j.id,
            j.name,
            j.state,
            j.resolved_runtime ?? j.runtime,
            j.created_at.slice(0, 19).replace("T", " "),
          ]),
        ),
      );
      return 0;
    },
  });

  registry.register({
    name: "jobs show",
    summary: "Show one training job",
    usage: "<job_id> [--follow]",
    options: { follow: { type: "boolean" } },
    async run({ client, args, options, out }) {
      const [id] = args;
      if (!id || args.length > 1) throw new UsageError("Give the job's id.");
      const c = client();
      const job = await c.getJob(id);
      if (options.follow && !["succeeded", "failed", "cancelled", "timed_out"].includes(job.state))
        return follow(c, job, out);
      out.result(job, () => summary(job));
      return 0;
    },
  });

  registry.register({
    name: "jobs cancel",
    summary: "Cancel a training job",
    usage: "<job_id>",
    async run({ client, args, out }) {
      const [id] = args;
      if (!id || args.length > 1) throw new UsageError("Give the job's id.");
      const { data } = await client().api.POST("/api/v1/training/jobs/{job_id}/cancel", {
        params: { path: { job_id: id } },
      });
      out.result(data, () => `Cancellation requested for ${id} (${data?.state ?? "?"}).`);
      return 0;
    },
  });
}
