import { describe, expect, it } from "vitest";
import {
  embedText,
  type GenerationParams,
  generate,
  generateText,
  generationParams,
  type LanguageModel,
  languageModelOf,
  StopMatcher,
  sampleToken,
  seededRandom,
  tokenize,
} from "./text-generation";

const VOCAB = ["a", "b", "c", "d"];

/**
 * A tiny fake model: after token t it favours (t + 1) mod 4 by `margin`, the others following with
 * decreasing scores, so greedy text cycles a→b→c→d, and sampling sees a known distribution.
 */
function fakeModel(margin = 4, calls: number[][][] = []): LanguageModel {
  return {
    vocabulary: VOCAB,
    window: 3,
    async scores(contexts) {
      calls.push(contexts.map((c) => [...c]));
      return contexts.map((ctx) => {
        const last = ctx.length > 0 ? ctx[ctx.length - 1] : 3;
        return VOCAB.map((_, k) => (k === (last + 1) % 4 ? margin : -((k - last + 4) % 4)));
      });
    },
  };
}

const params = (p: Partial<GenerationParams>) => generationParams(p);

async function collect(model: LanguageModel, prompt: string, p: GenerationParams, signal?: AbortSignal) {
  const pieces: string[] = [];
  const it = generate(model, prompt, p, signal);
  for (;;) {
    const step = await it.next();
    if (step.done) return { pieces, result: step.value };
    pieces.push(step.value);
  }
}

describe("text generation", () => {
  it("is greedy at temperature 0, one piece per token, up to max_tokens", async () => {
    const calls: number[][][] = [];
    const { pieces, result } = await collect(
      fakeModel(4, calls),
      "a",
      params({ temperature: 0, maxTokens: 6 }),
    );
    expect(result.text).toBe("bcdabc");
    expect(pieces).toEqual(["b", "c", "d", "a", "b", "c"]);
    expect(result.finishReason).toBe("length");
    expect(result.promptTokens).toBe(1);
    expect(result.completionTokens).toBe(6);
    // The model sees a sliding window of the last 3 tokens.
    expect(calls.map((c) => c[0])).toEqual([[0], [0, 1], [0, 1, 2], [1, 2, 3], [2, 3, 0], [3, 0, 1]]);
  });

  it("skips prompt characters outside the vocabulary", async () => {
    expect(tokenize(VOCAB, "a-b?c🙂d")).toEqual([0, 1, 2, 3]);
    const r = await generateText(fakeModel(), "xyz c!", params({ temperature: 0, maxTokens: 2 }));
    expect(r.promptTokens).toBe(1);
    expect(r.text).toBe("da");
  });

  it("reproduces a seeded sample, and different seeds differ", async () => {
    const p = params({ temperature: 1.5, maxTokens: 64, seed: 42 });
    const a = await generateText(fakeModel(0.5), "a", p);
    const b = await generateText(fakeModel(0.5), "a", p);
    const c = await generateText(fakeModel(0.5), "a", { ...p, seed: 43 });
    expect(a.text).toHaveLength(64);
    expect(b.text).toBe(a.text);
    expect(c.text).not.toBe(a.text);
    // Not greedy: a flat-ish distribution at T = 1.5 leaves the cycle.
    const greedy = await generateText(fakeModel(0.5), "a", { ...p, temperature: 0 });
    expect(a.text).not.toBe(greedy.text);
  });

  it("samples with the softmax's frequencies, and top_p keeps only the nucleus", () => {
    // softmax([2, 1, 0, -1]) ≈ [0.644, 0.237, 0.087, 0.032]
    const scores = [2, 1, 0, -1];
    const random = seededRandom(7);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 20_000; i++) counts[sampleToken(scores, 1, 1, random)]++;
    expect(counts[0] / 20_000).toBeCloseTo(0.644, 1);
    expect(counts[1] / 20_000).toBeCloseTo(0.237, 1);
    expect(counts[3]).toBeGreaterThan(0);
    // top_p 0.85: the two most likely tokens (0.644 + 0.237 ≥ 0.85) renormalised.
    const nucleus = [0, 0, 0, 0];
    for (let i = 0; i < 20_000; i++) nucleus[sampleToken(scores, 1, 0.85, random)]++;
    expect(nucleus[2] + nucleus[3]).toBe(0);
    expect(nucleus[0] / 20_000).toBeCloseTo(0.644 / 0.881, 1);
    // top_p small: only the top token.
    for (let i = 0; i < 100; i++) expect(sampleToken(scores, 1, 0.1, random)).toBe(0);
    // Temperature 0 is argmax.
    expect(sampleToken([0, 3, 3, 1], 0, 1, random)).toBe(1);
  });

  it("stops before a stop sequence, never emitting its characters", async () => {
    const { pieces, result } = await collect(
      fakeModel(),
      "a",
      params({ temperature: 0, maxTokens: 20, stop: ["da", "zz"] }),
    );
    expect(result.text).toBe("bc");
    expect(result.finishReason).toBe("stop");
    expect(result.completionTokens).toBe(4); // b, c, d, a
    expect(pieces.join("")).toBe("bc");
    expect(pieces.join("")).not.toContain("d");
  });

  it("releases held-back characters when the stop sequence does not complete", async () => {
    const { pieces, result } = await collect(
      fakeModel(),
      "a",
      params({ temperature: 0, maxTokens: 5, stop: ["cdx"] }),
    );
    expect(result.text).toBe("bcdab");
    expect(pieces).toEqual(["b", "cda", "b"]);
    expect(result.finishReason).toBe("length");
    const m = new StopMatcher(["abc"]);
    expect(m.push("xa")).toEqual({ emit: "x", stopped: false });
    expect(m.push("b")).toEqual({ emit: "", stopped: false });
    expect(m.push("d")).toEqual({ emit: "abd", stopped: false });
    expect(m.push("ab")).toEqual({ emit: "", stopped: false });
    expect(m.flush()).toBe("ab");
  });

  it("stops when its signal aborts", async () => {
    const ctrl = new AbortController();
    const it = generate(fakeModel(), "a", params({ temperature: 0, maxTokens: 100 }), ctrl.signal);
    expect((await it.next()).value).toBe("b");
    ctrl.abort();
    const end = await it.next();
    expect(end.done).toBe(true);
    expect(end.value).toMatchObject({ aborted: true, completionTokens: 1 });
  });

  it("lets other work run between tokens", async () => {
    // Other work waiting on the event loop (a chain of immediates) runs between tokens, not only
    // once generation is over; a 1 ms timer could miss a fast generation, so none is used.
    let ticks = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      ticks++;
      setImmediate(tick);
    };
    setImmediate(tick);
    await generateText(fakeModel(), "a", params({ temperature: 0, maxTokens: 200 }));
    running = false;
    expect(ticks).toBeGreaterThan(100);
  });
});

describe("embeddings", () => {
  it("is the L2-normalised mean of per-character log-probability vectors", async () => {
    const model = fakeModel();
    const e = await embedText(model, "ab");
    if (!e) throw new Error("no embedding");
    expect(e.tokens).toBe(2);
    expect(e.embedding).toHaveLength(4);
    const norm = Math.hypot(...e.embedding);
    expect(norm).toBeCloseTo(1, 10);
    // By hand: log-softmax after "a" and after "ab", averaged, normalised.
    const [r1, r2] = await model.scores([[0], [0, 1]]);
    const ls = (r: ArrayLike<number>) => {
      const arr = Array.from(r);
      const m = Math.max(...arr);
      const lse = m + Math.log(arr.reduce((n, x) => n + Math.exp(x - m), 0));
      return arr.map((x) => x - lse);
    };
    const mean = ls(r1).map((x, k) => (x + ls(r2)[k]) / 2);
    const n = Math.hypot(...mean);
    for (const [k, x] of mean.entries()) expect(e.embedding[k]).toBeCloseTo(x / n, 10);
    // Different texts, different embeddings; no vocabulary character, no embedding.
    const other = await embedText(model, "cc");
    expect(Array.from(other?.embedding ?? [])).not.toEqual(Array.from(e.embedding));
    expect(await embedText(model, "xyz")).toBeNull();
  });
});

describe("languageModelOf", () => {
  it("sends each context as its text and takes log-probabilities back", async () => {
    const seen: unknown[] = [];
    const lm = languageModelOf(
      {
        output: { name: "output", kind: "labels", labels: ["a", "b", "<unused 1>"] },
        input: {
          name: "input",
          shape: [4],
          dtype: "int64",
          features: [],
          preprocessing: [{ kind: "char_tokens", vocabulary: ["a", "b"], sequence_length: 4 }],
        },
      } as unknown as Parameters<typeof languageModelOf>[0],
      async (instances) => {
        seen.push(...instances);
        return instances.map(() => ({ label: "b", probabilities: { a: 0.25, b: 0.75 } }));
      },
    );
    expect(lm.window).toBe(4);
    const [row] = await lm.scores([[0, 1, 1]]);
    expect(seen).toEqual(["abb"]);
    expect(Array.from(row)).toEqual([Math.log(0.25), Math.log(0.75)]);
  });
});
