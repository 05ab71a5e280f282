/** A prediction's output, read for display: a label with its class probabilities, or a value. */

export type ShownOutput =
  | { kind: "label"; label: string; classes: { name: string; probability: number }[] }
  | { kind: "value"; value: number }
  | { kind: "values"; values: number[] }
  | { kind: "raw"; json: string };

/** Classes sorted by probability, highest first. */
export function showOutput(output: unknown): ShownOutput {
  if (typeof output === "object" && output !== null) {
    const o = output as Record<string, unknown>;
    if (typeof o.label === "string" && typeof o.probabilities === "object" && o.probabilities !== null) {
      const classes = Object.entries(o.probabilities as Record<string, unknown>)
        .filter((e): e is [string, number] => typeof e[1] === "number")
        .map(([name, probability]) => ({ name, probability }))
        .sort((a, b) => b.probability - a.probability);
      return { kind: "label", label: o.label, classes };
    }
    if (typeof o.value === "number") return { kind: "value", value: o.value };
    if (Array.isArray(o.values) && o.values.every((v) => typeof v === "number"))
      return { kind: "values", values: o.values as number[] };
  }
  return { kind: "raw", json: JSON.stringify(output, null, 2) };
}

/** "97.3%", "<0.1%". */
export function formatProbability(p: number): string {
  if (p > 0 && p < 0.001) return "<0.1%";
  return `${(p * 100).toFixed(1)}%`;
}
