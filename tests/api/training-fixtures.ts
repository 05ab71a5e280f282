/** What the API tests that train a real model share: waiting for a state, and the Iris MLP. */
import { sequential } from "@/lib/ml/graph-builder";

export const TERMINAL = ["succeeded", "failed", "cancelled", "timed_out"];

/** A 4 → 16 → 3 MLP for the built-in Iris dataset: trains to ≥ 93% in seconds. */
export const irisGraph = sequential({ shape: [4] }, [
  ["Dense", { units: 16, activation: "relu" }],
  ["Dense", { units: 3 }],
]).graph;

/** Polls `probe` until it returns a value (every 150 ms), failing after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | null>,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
