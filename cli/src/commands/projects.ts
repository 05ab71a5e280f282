import type { PageItem, Schemas } from "../../../sdk/src/client";
import { table } from "../output";
import { type CommandRegistry, numberOption, requireOption, stringOption, UsageError } from "../registry";

const TEMPLATES = [
  "mlp-classifier",
  "cnn-image",
  "cnn-vgg",
  "cnn-resnet",
  "lstm-sequence",
  "transformer-block",
] as const;
const FAMILIES = ["mlp", "cnn", "resnet", "lstm", "transformer"] as const;

export function registerProjects(registry: CommandRegistry): void {
  registry.register({
    name: "projects",
    summary: "List your projects (every page)",
    usage: "[--search <text>] [--max <n>]",
    options: { search: { type: "string" }, max: { type: "string" } },
    async run({ client, options, out }) {
      const max = numberOption(options, "max") ?? Number.POSITIVE_INFINITY;
      const q = stringOption(options, "search");
      const items: PageItem<"/api/v1/projects">[] = [];
      for await (const p of client().paginate("/api/v1/projects", q ? { q } : {})) {
        if (items.length >= max) break;
        items.push(p);
      }
      out.result(items, () =>
        table(
          ["ID", "NAME", "NODES", "UPDATED"],
          items.map((p) => [p.id, p.name, String(p.node_count), p.updated_at.slice(0, 19).replace("T", " ")]),
        ),
      );
      return 0;
    },
  });

  registry.register({
    name: "projects create",
    summary: "Create a project from a template, or sized to a dataset (then train it as it is)",
    usage:
      `--name <name> [--template ${TEMPLATES.join("|")}] [--description <text>]\n` +
      `       --dataset <ds_…|builtin-…> [--family ${FAMILIES.join("|")}] [--name <name>] [--description <text>]`,
    options: {
      name: { type: "string" },
      template: { type: "string" },
      description: { type: "string" },
      dataset: { type: "string" },
      family: { type: "string" },
    },
    async run({ client, options, out }) {
      const description = stringOption(options, "description");
      const dataset = stringOption(options, "dataset");
      const family = stringOption(options, "family");
      if (dataset) {
        if (stringOption(options, "template"))
          throw new UsageError("--dataset and --template exclude each other.");
        if (family && !(FAMILIES as readonly string[]).includes(family))
          throw new UsageError(`--family is one of ${FAMILIES.join(", ")}.`);
        const name = stringOption(options, "name");
        const body: Schemas["CreateProjectRequest"] = {
          dataset_id: dataset,
          ...(family ? { family: family as (typeof FAMILIES)[number] } : {}),
          ...(name ? { name } : {}),
          ...(description ? { description } : {}),
        };
        const { data } = await client().api.POST("/api/v1/projects", { body });
        out.result(
          data,
          () => `Created project ${data?.name}: ${data?.id}, sized to ${dataset}\n${data?.description ?? ""}`,
        );
        return 0;
      }
      if (family) throw new UsageError("--family needs --dataset.");
      const template = stringOption(options, "template") ?? "mlp-classifier";
      if (!(TEMPLATES as readonly string[]).includes(template))
        throw new UsageError(`--template is one of ${TEMPLATES.join(", ")}.`);
      const body: Schemas["CreateProjectRequest"] = {
        name: requireOption(options, "name"),
        template: template as (typeof TEMPLATES)[number],
        ...(description ? { description } : {}),
      };
      const { data } = await client().api.POST("/api/v1/projects", { body });
      out.result(data, () => `Created project ${data?.name}: ${data?.id} (template ${template})`);
      return 0;
    },
  });
}
