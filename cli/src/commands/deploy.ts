import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { Layerline } from "../../../sdk/src/client";
import { type CommandRegistry, numberOption, stringOption, UsageError } from "../registry";

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${where} is not valid JSON.`);
  }
}

export function registerDeploy(registry: CommandRegistry): void {
  registry.register({
    name: "deploy",
    summary: "Deploy a succeeded training job; prints the deployment key once",
    usage: "<job_id> [--name <name>]",
    options: { name: { type: "string" } },
    async run({ client, args, options, out }) {
      const [jobId] = args;
      if (!jobId || args.length > 1) throw new UsageError("Give the training job's id.");
      const d = await client().deploy({
        name: stringOption(options, "name") ?? `deploy-${jobId}`,
        job_id: jobId,
      });
      out.result(d, () =>
        [
          `Deployed ${d.name}: ${d.id} (${d.state}, revision ${d.revision})`,
          d.api_key
            ? `Deployment key (shown once, store it now): ${d.api_key}`
            : "No key in this response (an idempotent replay): rotate the key to get a new one.",
          `Predict: layerline predict ${d.id} --key <key> --input '{"feature": 1}'`,
        ].join("\n"),
      );
      return 0;
    },
  });

  registry.register({
    name: "predict",
    summary: "Predict with a deployment (deployment key ldk_…, or LAYERLINE_DEPLOYMENT_KEY)",
    usage: "<deployment_id> --key <ldk_…> (--input '<json>' | --file rows.jsonl) [--batch <n>]",
    help: "--input takes one JSON object or an array of them. --file reads JSON Lines (one input per line), sent in batches (default 100). Outputs are printed one JSON per line, in order.",
    options: {
      key: { type: "string" },
      input: { type: "string" },
      file: { type: "string" },
      batch: { type: "string" },
    },
    async run({ args, options, out, config }) {
      const [deploymentId] = args;
      if (!deploymentId || args.length > 1) throw new UsageError("Give the deployment's id.");
      const key = stringOption(options, "key") ?? process.env.LAYERLINE_DEPLOYMENT_KEY;
      if (!key) throw new UsageError("--key <ldk_…> (the deployment key) is required.");
      const input = stringOption(options, "input");
      const file = stringOption(options, "file");
      if (!input === !file) throw new UsageError("Give either --input or --file.");
      const batch = Math.max(1, Math.min(1000, numberOption(options, "batch") ?? 100));
      const client = new Layerline({ baseUrl: config.url });
      const outputs: unknown[] = [];
      const send = async (inputs: unknown[]) => {
        const r = await client.predict(deploymentId, key, inputs);
        for (const o of r.outputs) {
          outputs.push(o);
          if (!out.json) out.line(JSON.stringify(o));
        }
      };
      if (input !== undefined) {
        const parsed = parseJson(input, "--input");
        await send(Array.isArray(parsed) ? parsed : [parsed]);
      } else {
        const lines = createInterface({
          input: createReadStream(file as string),
          crlfDelay: Number.POSITIVE_INFINITY,
        });
        let pending: unknown[] = [];
        let n = 0;
        for await (const line of lines) {
          n++;
          if (!line.trim()) continue;
          pending.push(parseJson(line, `${file} line ${n}`));
          if (pending.length >= batch) {
            await send(pending);
            pending = [];
          }
        }
        if (pending.length > 0) await send(pending);
      }
      if (out.json) out.result({ outputs }, () => "");
      return 0;
    },
  });
}
