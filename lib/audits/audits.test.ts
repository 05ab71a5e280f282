import { describe, expect, it } from "vitest";
import { chooseCandidates } from "./candidates";
import { featureNames, featureRow, textFeatures } from "./features";
import {
  accuracy,
  agreement,
  currentStats,
  estimatedCostPer1k,
  levenshtein,
  percentile,
  sampleSorted,
  textSimilarity,
} from "./metrics";
import { inputText, parseCallsJsonl } from "./parse-log";
import { bestCandidate, savingsOf, summarizeWorkload, summaryText } from "./summary";
import { detectTask, groupWorkloads, holdoutMask } from "./workloads";

const documented = (input: unknown, output: string, model = "gpt-4o-mini", extra: object = {}) =>
  JSON.stringify({
    input,
    output,
    latency_ms: 500,
    cost: 0.0002,
    model,
    timestamp: "2026-11-01T10:00:00Z",
    ...extra,
  });

describe("parseCallsJsonl", () => {
  it("reads the documented format with text, chat and feature inputs", () => {
    const log = [
      documented("I was charged twice", "billing"),
      "",
      documented(
        [
          { role: "system", content: "Classify." },
          { role: "user", content: "App crashes" },
        ],
        "bug",
      ),
      documented({ plan: "pro", seats: 3 }, "sales"),
    ].join("\n");
    const { calls, errors } = parseCallsJsonl(log);
    expect(errors).toEqual([]);
    expect(calls).toHaveLength(3);
    expect(calls[0]).toMatchObject({
      input_text: "I was charged twice",
      output: "billing",
      latency_ms: 500,
      cost: 0.0002,
    });
    expect(calls[1].input_text).toBe("App crashes");
    expect(calls[2].input_text).toBe("plan=pro seats=3");
    expect(calls[0].timestamp).toBe("2026-11-01T10:00:00.000Z");
  });

  it("accepts OpenAI chat-completion request/response pairs as they are", () => {
    const pair = {
      request: { model: "gpt-4o", messages: [{ role: "user", content: [{ type: "text", text: "Hello" }] }] },
      response: {
        id: "chatcmpl-1",
        created: 1_700_000_000,
        choices: [{ index: 0, message: { role: "assistant", content: "Hi there" }, finish_reason: "stop" }],
        usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
      },
    };
    const { calls, errors } = parseCallsJsonl(
      `${JSON.stringify(pair)}\n${JSON.stringify({ ...pair, latency_ms: 812, cost: 0.001 })}`,
    );
    expect(errors).toEqual([]);
    expect(calls[0]).toMatchObject({
      model: "gpt-4o",
      output: "Hi there",
      input_text: "Hello",
      latency_ms: null,
      cost: null,
    });
    expect(calls[0].timestamp).toBe(new Date(1_700_000_000_000).toISOString());
    expect(calls[1]).toMatchObject({ latency_ms: 812, cost: 0.001 });
  });

  it("reports bad lines by number and keeps reading", () => {
    const { calls, errors } = parseCallsJsonl(
      `not json\n${documented("x", "y")}\n{"input":"a","output":"b"}\n[1]`,
    );
    expect(calls).toHaveLength(1);
    expect(errors).toEqual([
      { line: 1, message: "not valid JSON" },
      { line: 3, message: "model is missing" },
      { line: 4, message: "not a JSON object" },
    ]);
  });

  it("joins chat user turns, or every turn when there is no user turn", () => {
    expect(
      inputText([
        { role: "user", content: "a" },
        { role: "assistant", content: "b" },
        { role: "user", content: "c" },
      ]),
    ).toBe("a\nc");
    expect(inputText([{ role: "system", content: "s" }])).toBe("s");
  });
});

describe("workloads", () => {
  it("detects classification from a few distinct short outputs, else generation", () => {
    expect(detectTask(["a", "b", "a", "b", "c", "c"])).toBe("classification");
    expect(detectTask(["a", "b", "c"])).toBe("generation"); // each label once: not enough repetition
    expect(detectTask(Array.from({ length: 50 }, (_, i) => `a reply number ${i}`))).toBe("generation");
    expect(detectTask(["x".repeat(60), "x".repeat(60), "y", "y"])).toBe("generation");
  });

  it("groups by model and task, honouring a declared task", () => {
    const { calls } = parseCallsJsonl(
      [
        documented("t1", "billing", "m1"),
        documented("t2", "bug", "m1"),
        documented("t3", "billing", "m1"),
        documented("t4", "bug", "m1"),
        documented("q1", "A long answer about something", "m2"),
        documented("q2", "Another long answer", "m2", { task: "generation" }),
      ].join("\n"),
    );
    const groups = groupWorkloads(calls);
    expect(groups.map((g) => [g.name, g.task, g.calls.length])).toEqual([
      ["m1-classification", "classification", 4],
      ["m2-generation", "generation", 2],
    ]);
    expect(groups[0].labels).toEqual(["billing", "bug"]);
    expect(groups[1].labels).toBeNull();
  });

  it("holds out a seeded fraction, deterministically, leaving calls to train on", () => {
    const a = holdoutMask(100, 0.2, 7);
    expect(a.filter(Boolean)).toHaveLength(20);
    expect(holdoutMask(100, 0.2, 7)).toEqual(a);
    expect(holdoutMask(100, 0.2, 8)).not.toEqual(a);
    expect(holdoutMask(2).filter(Boolean)).toHaveLength(1);
    expect(holdoutMask(1)).toEqual([false]);
  });
});

describe("features", () => {
  it("hashes text into a fixed-width unit vector, the same every time", () => {
    const v = textFeatures("My card was charged twice", 30);
    expect(v).toHaveLength(30);
    expect(Math.hypot(...v)).toBeCloseTo(1, 4);
    expect(textFeatures("My card was charged twice", 30)).toEqual(v);
    expect(textFeatures("The app crashes on start", 30)).not.toEqual(v);
    expect(textFeatures("", 8)).toEqual(new Array(8).fill(0));
    expect(Object.keys(featureRow("x", 12))).toEqual(featureNames(12));
    expect(featureNames(3)).toEqual(["f00", "f01", "f02"]);
  });
});

describe("metrics", () => {
  it("Levenshtein distance and normalised similarity", () => {
    expect(levenshtein("kitten", "sitting")).toBe(3);
    expect(levenshtein("", "abc")).toBe(3);
    expect(textSimilarity("kitten", "sitting")).toBeCloseTo(1 - 3 / 7);
    expect(textSimilarity("", "")).toBe(1);
    expect(textSimilarity("abc", "xyz")).toBe(0);
  });

  it("agreement: accuracy for classification, similarity for generation", () => {
    expect(accuracy(["a", "b ", "c"], ["a", "b", "x"])).toBeCloseTo(2 / 3);
    expect(agreement("classification", ["a"], ["a"])).toEqual({ metric: "accuracy", value: 1 });
    expect(agreement("generation", ["abcd"], ["abce"])).toEqual({
      metric: "levenshtein_similarity",
      value: 0.75,
    });
  });

  it("percentiles, samples and today's figures", () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([], 50)).toBeNull();
    expect(sampleSorted([3, 1, 2])).toEqual([1, 2, 3]);
    const big = sampleSorted(
      Array.from({ length: 1000 }, (_, i) => 1000 - i),
      10,
    );
    expect(big).toHaveLength(10);
    expect(big[0]).toBe(1);
    expect(big[9]).toBe(1000);
    expect(
      currentStats([
        { cost: 0.001, latency_ms: 100 },
        { cost: 0.003, latency_ms: 300 },
        { cost: null, latency_ms: null },
      ]),
    ).toEqual({ calls: 3, cost_per_1k: 2, latency_p50_ms: 100, latency_p95_ms: 300 });
  });

  it("estimates cost per 1k calls from CPU time", () => {
    expect(estimatedCostPer1k(1000, { cpu_second_usd: 0.01, per_call_usd: 0 })).toBeCloseTo(10);
    expect(estimatedCostPer1k(0, { cpu_second_usd: 0.01, per_call_usd: 0.001 })).toBeCloseTo(1);
  });
});

describe("candidates and summary", () => {
  it("chooses a recipe and base model per task", () => {
    expect(chooseCandidates("classification")[0]).toEqual({
      recipe_id: "tabular-mlp-classifier",
      base_model_id: "breast-cancer-mlp",
    });
    expect(chooseCandidates("generation")[0].base_model_id).toBe("char-lstm-declaration");
  });

  it("recommends the cheapest candidate above the quality floor and computes savings", () => {
    const cands = [
      { id: "a", recipe_id: "r", base_model_id: "b", quality: 0.95, latency_p50_ms: 1, cost_per_1k: 0.05 },
      { id: "b", recipe_id: "r", base_model_id: "b", quality: 0.97, latency_p50_ms: 1, cost_per_1k: 0.01 },
      { id: "c", recipe_id: "r", base_model_id: "b", quality: 0.5, latency_p50_ms: 1, cost_per_1k: 0.001 },
    ];
    expect(bestCandidate(cands)?.id).toBe("b");
    expect(bestCandidate(cands, 0.99)?.id).toBe("b"); // none above: best quality
    expect(bestCandidate([])).toBeNull();
    expect(savingsOf(0.2, 0.05)).toEqual({ per_1k: 0.15000000000000002, percent: 75.00000000000001 });
    expect(savingsOf(null, 1)).toEqual({ per_1k: null, percent: null });
    const s = summarizeWorkload(
      "w",
      { calls: 10, cost_per_1k: 0.2, latency_p50_ms: 500, latency_p95_ms: 900 },
      cands,
    );
    expect(s.best?.candidate_id).toBe("b");
    expect(s.best?.savings.percent).toBeCloseTo(95);
    expect(summaryText([s])).toBe("w: best candidate agrees 97.0%, 95.0% cheaper");
  });
});
