/**
 * The runnable example the Audits page shows (issue 25): a curl that publishes a small audit to
 * this server, and the CLI's command for a whole log. The body is a valid `POST /api/v1/audits`
 * (tests/api/audit-example.test.ts sends it).
 */

export const EXAMPLE_AUDIT_BODY = {
  name: "Support triage",
  source: "example",
  workloads: [
    {
      name: "ticket-classifier",
      task: "classification",
      model: "gpt-4o-mini",
      calls: [
        { input: "I was charged twice", output: "billing", latency_ms: 620, cost: 0.00021 },
        { input: "The app crashes on start", output: "bug", latency_ms: 710, cost: 0.00023 },
        { input: "How do I change my password?", output: "account", latency_ms: 590, cost: 0.0002 },
        { input: "Refund for my last order", output: "billing", latency_ms: 650, cost: 0.00022 },
      ],
    },
  ],
} as const;

/** One logged call per line, as the CLI reads them (the JSON Lines log format). */
export const EXAMPLE_LOG_LINE =
  '{"model": "gpt-4o-mini", "input": "I was charged twice", "output": "billing", "latency_ms": 620, "cost": 0.00021}';

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The example body as it reads best in a terminal: one call per line. */
function exampleBodyText(): string {
  const { workloads, ...audit } = EXAMPLE_AUDIT_BODY;
  const head = Object.entries(audit).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`);
  const loads = workloads.map(({ calls, ...w }) => {
    const fields = Object.entries(w)
      .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
      .join(", ");
    const lines = calls.map(
      (c) => `      ${JSON.stringify(c).replaceAll('":', '": ').replaceAll(',"', ', "')}`,
    );
    return `    {\n      ${fields},\n      "calls": [\n${lines.map((l) => `  ${l}`).join(",\n")}\n      ]\n    }`;
  });
  return `{\n${head.join("\n")}\n  "workloads": [\n${loads.join(",\n")}\n  ]\n}`;
}

/** `curl` publishing the example audit to the server at `origin`, with a personal key from the environment. */
export function auditCurl(origin: string): string {
  return [
    `curl -X POST ${origin}/api/v1/audits \\`,
    `  -H "Authorization: Bearer $LAYERLINE_API_KEY" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d ${shellQuote(exampleBodyText())}`,
  ].join("\n");
}

/** The CLI's audit of a whole log against the server at `origin`. */
export function auditCliCommand(origin: string): string {
  return [
    `export LAYERLINE_URL=${origin}`,
    "export LAYERLINE_API_KEY=lk_…   # a personal key (Account → API keys)",
    'npx layerline audit calls.jsonl --name "Support triage"',
  ].join("\n");
}
