/**
 * Text generation and embeddings with a character language model (a deployed char LM: one token per
 * character of its vocabulary, a window of the last `window` tokens in, scores over the vocabulary
 * out). Pure: the model is a function from contexts to next-token scores, so the sampling rules are
 * unit-tested with a fake one (text-generation.test.ts) and served with the real one
 * (languageModelOf, through the deployment's micro-batcher, so concurrent generations share model
 * calls and use exactly the predict route's preprocessing).
 *
 * Generation is autoregressive: the prompt's characters (those in the vocabulary; others are skipped,
 * as predict skips them) then each generated character, the model seeing the last `window` of them
 * (left-padded with token 0 when shorter, as predict does). It yields to the event loop between
 * tokens and stops when its AbortSignal fires (the client went away).
 */
import { randomInt } from "node:crypto";
import type { PreprocessingStep } from "../../db/schema/training";
import type { ModelManifest, Prediction } from "../training/artifact-reader";

/** Next-token scores (logits or log-probabilities) per context: one row per context, one score per vocabulary token. */
export type NextTokenScores = (contexts: readonly (readonly number[])[]) => Promise<ArrayLike<number>[]>;

export interface LanguageModel {
  /** Token id → its character. */
  vocabulary: readonly string[];
  /** How many of the latest tokens the model sees. */
  window: number;
  scores: NextTokenScores;
}

export const DEFAULT_MAX_TOKENS = 128;
export const MAX_TOKENS_CAP = 1024;
export const MAX_STOP_SEQUENCES = 4;

export interface GenerationParams {
  /** Tokens (characters) to generate at most, 1 to MAX_TOKENS_CAP. */
  maxTokens: number;
  /** 0 = greedy (always the most likely token); otherwise scores are divided by it before softmax. */
  temperature: number;
  /** Nucleus sampling: sample among the most likely tokens whose probabilities sum to at least top_p. */
  topP: number;
  /** The same seed, prompt and model give the same text; null draws a random seed. */
  seed: number | null;
  /** Generation ends before the first occurrence of any of these in the generated text (not returned). */
  stop: readonly string[];
}

export type FinishReason = "stop" | "length";

export interface GenerationResult {
  text: string;
  finishReason: FinishReason;
  /** Prompt tokens the model read (the prompt's characters that are in the vocabulary). */
  promptTokens: number;
  /** Tokens generated (a stop sequence's characters included, though they are not returned). */
  completionTokens: number;
  /** The client went away before the end. */
  aborted: boolean;
}

export function generationParams(p: Partial<GenerationParams> = {}): GenerationParams {
  return {
    maxTokens: p.maxTokens ?? DEFAULT_MAX_TOKENS,
    temperature: p.temperature ?? 1,
    topP: p.topP ?? 1,
    seed: p.seed ?? null,
    stop: (p.stop ?? []).filter((s) => s.length > 0),
  };
}

/** The text's token ids: one per character in the vocabulary (other characters are skipped). */
export function tokenize(vocabulary: readonly string[], text: string): number[] {
  const index = new Map(vocabulary.map((ch, i) => [ch, i] as const));
  const ids: number[] = [];
  for (const ch of text) {
    const id = index.get(ch);
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

// ---------------------------------------------------------------------------------------------
// Sampling

/**
 * A seeded pseudo-random generator (xoshiro128**, seeded by splitmix32 from the seed's low and high
 * 32 bits): uniform numbers in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  const whole = Math.trunc(seed);
  const low = whole >>> 0;
  const high = Math.floor(whole / 2 ** 32) >>> 0;
  let x = (low ^ Math.imul(high, 0x9e3779b9)) >>> 0;
  const splitmix = () => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  return () => {
    const result = Math.imul(rotl(Math.imul(b, 5) >>> 0, 7), 9) >>> 0;
    const t = (b << 9) >>> 0;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return result / 2 ** 32;
  };
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

function argmax(scores: ArrayLike<number>): number {
  let best = 0;
  for (let k = 1; k < scores.length; k++) if (scores[k] > scores[best]) best = k;
  return best;
}

/** log-softmax of scores (logits or log-probabilities give the same result). */
export function logSoftmax(scores: ArrayLike<number>): Float64Array {
  let max = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < scores.length; k++) if (scores[k] > max) max = scores[k];
  let sum = 0;
  for (let k = 0; k < scores.length; k++) sum += Math.exp(scores[k] - max);
  const lse = max + Math.log(sum);
  return Float64Array.from(scores, (s) => s - lse);
}

/** The next token: greedy at temperature 0, else sampled from softmax(scores / T) within top_p. */
export function sampleToken(
  scores: ArrayLike<number>,
  temperature: number,
  topP: number,
  random: () => number,
): number {
  if (temperature <= 0) return argmax(scores);
  const scaled = Float64Array.from(scores, (s) => s / temperature);
  const logp = logSoftmax(scaled);
  const probs = Array.from(logp, (l, k) => ({ k, p: Math.exp(l) }));
  let pool = probs;
  if (topP < 1) {
    // Ties keep the lower token id first, so the nucleus is deterministic.
    const sorted = [...probs].sort((x, y) => y.p - x.p || x.k - y.k);
    pool = [];
    let mass = 0;
    for (const e of sorted) {
      pool.push(e);
      mass += e.p;
      if (mass >= topP) break;
    }
  }
  const total = pool.reduce((n, e) => n + e.p, 0);
  let u = random() * total;
  for (const e of pool) {
    u -= e.p;
    if (u < 0) return e.k;
  }
  return pool[pool.length - 1].k;
}

// ---------------------------------------------------------------------------------------------
// Stop sequences

/**
 * Holds back generated text that could still become a stop sequence: `push` returns the text that is
 * safe to emit now and whether a stop sequence was completed (then nothing after it is emitted).
 */
export class StopMatcher {
  private pending = "";
  constructor(private readonly stops: readonly string[]) {}

  push(piece: string): { emit: string; stopped: boolean } {
    this.pending += piece;
    let cut = -1;
    for (const s of this.stops) {
      const at = this.pending.indexOf(s);
      if (at >= 0 && (cut < 0 || at < cut)) cut = at;
    }
    if (cut >= 0) {
      const emit = this.pending.slice(0, cut);
      this.pending = "";
      return { emit, stopped: true };
    }
    // Keep the longest tail that is a prefix of some stop sequence.
    let keep = 0;
    for (const s of this.stops) {
      for (let n = Math.min(s.length - 1, this.pending.length); n > keep; n--) {
        if (this.pending.endsWith(s.slice(0, n))) {
          keep = n;
          break;
        }
      }
    }
    const emit = this.pending.slice(0, this.pending.length - keep);
    this.pending = this.pending.slice(this.pending.length - keep);
    return { emit, stopped: false };
  }

  /** The held-back text at the end of generation (no stop sequence completed). */
  flush(): string {
    const rest = this.pending;
    this.pending = "";
    return rest;
  }
}

// ---------------------------------------------------------------------------------------------
// Generation

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Generates from `prompt`, yielding each piece of text as it becomes final (one per token, except
 * where a possible stop sequence holds characters back), and returns the whole result.
 */
export async function* generate(
  model: LanguageModel,
  prompt: string,
  params: GenerationParams,
  signal?: AbortSignal,
): AsyncGenerator<string, GenerationResult, void> {
  const promptIds = tokenize(model.vocabulary, prompt);
  const context = [...promptIds];
  const random = seededRandom(params.seed ?? randomInt(0, 2 ** 47));
  const matcher = new StopMatcher(params.stop);
  let text = "";
  let completionTokens = 0;
  let finishReason: FinishReason = "length";
  const result = (aborted: boolean): GenerationResult => ({
    text,
    finishReason,
    promptTokens: promptIds.length,
    completionTokens,
    aborted,
  });

  while (completionTokens < params.maxTokens) {
    if (signal?.aborted) return result(true);
    const [scores] = await model.scores([context.slice(-model.window)]);
    if (signal?.aborted) return result(true);
    const token = sampleToken(scores, params.temperature, params.topP, random);
    context.push(token);
    completionTokens++;
    const { emit, stopped } = matcher.push(model.vocabulary[token] ?? "");
    if (emit) {
      text += emit;
      yield emit;
    }
    if (stopped) {
      finishReason = "stop";
      return result(false);
    }
    await yieldToEventLoop();
  }
  const rest = matcher.flush();
  if (rest) {
    text += rest;
    yield rest;
  }
  return result(false);
}

/** Runs a generation to its end (the non-streaming routes). */
export async function generateText(
  model: LanguageModel,
  prompt: string,
  params: GenerationParams,
  signal?: AbortSignal,
): Promise<GenerationResult> {
  const it = generate(model, prompt, params, signal);
  for (;;) {
    const step = await it.next();
    if (step.done) return step.value;
  }
}

// ---------------------------------------------------------------------------------------------
// Embeddings

/** Most characters of one text an embedding reads (each is one model row). */
export const MAX_EMBEDDING_CHARACTERS = 4096;
const EMBEDDING_CHUNK = 256;

/**
 * The embedding of a text: for each character of the text (in the vocabulary), the model's
 * log-probability vector over the vocabulary for the next character given the text up to and
 * including it (the last `window` characters); the mean of these vectors, L2-normalised. Its
 * dimension is the vocabulary size. Returns null for a text with no character in the vocabulary.
 */
export async function embedText(
  model: LanguageModel,
  text: string,
  signal?: AbortSignal,
): Promise<{ embedding: Float64Array; tokens: number } | null> {
  const ids = tokenize(model.vocabulary, text).slice(0, MAX_EMBEDDING_CHARACTERS);
  if (ids.length === 0) return null;
  const sum = new Float64Array(model.vocabulary.length);
  for (let start = 0; start < ids.length; start += EMBEDDING_CHUNK) {
    if (signal?.aborted) throw new Error("aborted");
    const contexts: number[][] = [];
    for (let end = start + 1; end <= Math.min(ids.length, start + EMBEDDING_CHUNK); end++)
      contexts.push(ids.slice(Math.max(0, end - model.window), end));
    const rows = await model.scores(contexts);
    for (const row of rows) {
      const logp = logSoftmax(row);
      for (let k = 0; k < sum.length; k++) sum[k] += logp[k];
    }
    await yieldToEventLoop();
  }
  let norm = 0;
  for (let k = 0; k < sum.length; k++) {
    sum[k] /= ids.length;
    norm += sum[k] * sum[k];
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let k = 0; k < sum.length; k++) sum[k] /= norm;
  return { embedding: sum, tokens: ids.length };
}

// ---------------------------------------------------------------------------------------------
// The deployed model as a LanguageModel

type CharTokensStep = Extract<PreprocessingStep, { kind: "char_tokens" }>;

/** Whether a manifest is a character language model (char tokens in, a distribution over labels out). */
export function isLanguageModel(m: ModelManifest): boolean {
  return m.output.kind === "labels" && m.input.preprocessing.some((s) => s.kind === "char_tokens");
}

/**
 * A deployed char LM through its predict path: each context is sent as its text (the vocabulary
 * characters of its ids, so the predict preprocessing encodes exactly those ids, left-padded as
 * always), and the next-character probabilities come back; their logarithms are the scores.
 */
export function languageModelOf(
  manifest: ModelManifest,
  predict: (instances: readonly unknown[]) => Promise<Prediction[]>,
): LanguageModel {
  const tokens = manifest.input.preprocessing.find((s): s is CharTokensStep => s.kind === "char_tokens");
  if (!tokens || manifest.output.kind !== "labels") throw new Error("not a character language model");
  const vocabulary = tokens.vocabulary;
  const window = manifest.input.shape.reduce((a, b) => a * b, 1);
  return {
    vocabulary,
    window,
    async scores(contexts) {
      const outputs = await predict(contexts.map((ids) => ids.map((id) => vocabulary[id]).join("")));
      return outputs.map((o) => {
        const probabilities = "probabilities" in o ? o.probabilities : {};
        return Float64Array.from(vocabulary, (ch) => Math.log(probabilities[ch] ?? 0));
      });
    },
  };
}
