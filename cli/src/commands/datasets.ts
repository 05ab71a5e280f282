import { fileSource } from "../../../sdk/src/node";
import { formatBytes, table } from "../output";
import { type CommandRegistry, numberOption, stringOption, UsageError } from "../registry";

export function registerDatasets(registry: CommandRegistry): void {
  registry.register({
    name: "datasets upload",
    summary:
      "Upload a dataset file (CSV, TSV, JSON Lines, Parquet, image ZIP, text), streamed with a progress bar",
    usage:
      "<file> [--name <name>] [--description <text>] [--target <column>] [--dataset <id> (new version of it)]",
    help: "--target gives a column the role “target” (what a model learns to predict), needed to train on a table.",
    options: {
      name: { type: "string" },
      description: { type: "string" },
      dataset: { type: "string" },
      target: { type: "string" },
    },
    async run({ client, args, options, out, signal }) {
      const [file] = args;
      if (!file || args.length > 1) throw new UsageError("Give exactly one file.");
      let source: Awaited<ReturnType<typeof fileSource>>;
      try {
        source = await fileSource(file);
      } catch {
        throw new UsageError(`Cannot read ${file}.`);
      }
      const c = client();
      const result = await c.uploadDataset(source, {
        name: stringOption(options, "name"),
        description: stringOption(options, "description"),
        datasetId: stringOption(options, "dataset"),
        signal,
        onProgress: (sent, total) => out.progress(`Uploading ${source.name}`, sent, total, formatBytes(sent)),
      });
      const target = stringOption(options, "target");
      if (target) {
        const { data } = await c.api.PATCH("/api/v1/datasets/{dataset_id}/roles", {
          params: { path: { dataset_id: result.dataset.id } },
          body: { roles: { [target]: "target" } },
        });
        if (data) result.dataset.roles = data.roles;
        if (data) result.dataset.task = data.task;
      }
      out.result(result, () => {
        const d = result.dataset;
        return [
          `${result.created ? "Uploaded" : "Already stored (identical content)"}: ${d.name}`,
          `  dataset  ${d.id}`,
          `  version  ${result.version.id}`,
          `  format   ${d.format}, ${d.row_count ?? "?"} rows, ${formatBytes(d.size_bytes)}`,
          ...(target ? [`  target   ${target} (task: ${d.task ?? "?"})`] : []),
        ].join("\n");
      });
      return 0;
    },
  });

  registry.register({
    name: "datasets list",
    summary: "List your datasets (and the built-in ones with --builtin)",
    usage: "[--search <text>] [--builtin] [--limit <n>]",
    options: { search: { type: "string" }, builtin: { type: "boolean" }, limit: { type: "string" } },
    async run({ client, options, out }) {
      const q = stringOption(options, "search");
      const { data } = await client().api.GET("/api/v1/datasets/browse", {
        params: {
          query: {
            limit: numberOption(options, "limit") ?? 100,
            include_builtin: options.builtin ? "true" : "false",
            ...(q ? { q } : {}),
          },
        },
      });
      const items = data ?? [];
      out.result(items, () =>
        table(
          ["ID", "NAME", "FORMAT", "ROWS", "SIZE"],
          items.map((d) => [d.id, d.name, d.format, String(d.row_count ?? "?"), formatBytes(d.size_bytes)]),
        ),
      );
      return 0;
    },
  });

  registry.register({
    name: "datasets roles",
    summary: "Set column roles (e.g. the target a model learns to predict)",
    usage: "<dataset_id> --target <column> | --set <column>=<role> [--set …]",
    help: "Roles: feature, target, id, text, image, ignored; `--set column=` removes a column's role.",
    options: { target: { type: "string" }, set: { type: "string", multiple: true } },
    async run({ client, args, options, out }) {
      const [id] = args;
      if (!id || args.length > 1) throw new UsageError("Give the dataset's id.");
      const roles: Record<string, "feature" | "target" | "id" | "text" | "image" | "ignored" | null> = {};
      const target = stringOption(options, "target");
      if (target) roles[target] = "target";
      const sets = Array.isArray(options.set)
        ? options.set.filter((v): v is string => typeof v === "string")
        : [];
      for (const pair of sets) {
        const at = pair.lastIndexOf("=");
        const role = pair.slice(at + 1);
        if (at <= 0 || !["feature", "target", "id", "text", "image", "ignored", ""].includes(role))
          throw new UsageError(
            `--set takes column=role (feature, target, id, text, image, ignored), not “${pair}”.`,
          );
        roles[pair.slice(0, at)] = role === "" ? null : (role as "feature");
      }
      if (Object.keys(roles).length === 0) throw new UsageError("Give --target or --set.");
      const { data } = await client().api.PATCH("/api/v1/datasets/{dataset_id}/roles", {
        params: { path: { dataset_id: id } },
        body: { roles },
      });
      out.result(data, () =>
        [
          `Roles of ${id} (task: ${data?.task ?? "?"}):`,
          ...Object.entries(data?.roles ?? {}).map(([k, v]) => `  ${k}: ${v}`),
        ].join("\n"),
      );
      return 0;
    },
  });
}
