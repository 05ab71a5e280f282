import { stat } from "node:fs/promises";
import { pushModel } from "../../../sdk/src/node";
import { formatBytes, table } from "../output";
import { type CommandRegistry, requireOption, stringOption, UsageError } from "../registry";

export function registerPush(registry: CommandRegistry): void {
  registry.register({
    name: "push",
    summary:
      "Push a trained job's artifacts, or a directory of files, to the model registry (checksums verified)",
    usage: "<job_id | dir> --model <name> [--description <text>]",
    help: "Creates the model entry when missing, pushes a new version, uploads each file (SHA-256 computed while reading and checked against the server's) or, for a job, checks every copied artifact against the job's checksums, then finalizes the version.",
    options: { model: { type: "string" }, description: { type: "string" } },
    async run({ client, args, options, out }) {
      const [target] = args;
      if (!target || args.length > 1) throw new UsageError("Give a training job id or a directory.");
      const model = requireOption(options, "model");
      const isDir = await stat(target).then(
        (s) => s.isDirectory(),
        () => false,
      );
      let current = "";
      const result = await pushModel(client(), {
        model,
        ...(isDir ? { dir: target } : { jobId: target }),
        description: stringOption(options, "description"),
        onProgress: (p) => {
          if (`${p.phase}:${p.file}` !== current) {
            current = `${p.phase}:${p.file}`;
            out.resetProgress();
          }
          out.progress(`${p.phase.padEnd(6)} ${p.file}`, p.sent, p.total, formatBytes(p.sent));
        },
      });
      out.result(result, () =>
        [
          `Pushed ${result.model.name} v${result.version.version} (${result.version.id}), ${result.version.state}.`,
          table(
            ["ARTIFACT", "SIZE", "SHA-256", "CHECK"],
            result.artifacts.map((a) => [a.name, formatBytes(a.size_bytes), a.sha256, "verified"]),
          ),
        ].join("\n"),
      );
      return 0;
    },
  });
}
