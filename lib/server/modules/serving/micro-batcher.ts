/**
 * Micro-batching without added latency: when the model is idle a request runs at once; requests
 * that arrive while a model call is in flight are queued, and when it finishes the queue (up to
 * `maxBatch` instances) runs as one model call whose outputs are split back in order. The
 * collection window is thus the model call itself, not a fixed timer: a lone caller never waits,
 * and under load calls coalesce. Encoding (which validates) happens per request before queueing,
 * so one bad request never fails another's batch.
 */
import {
  decodeOutputs,
  type EncodedBatch,
  encodeInstances,
  type LoadedArtifact,
  type Prediction,
} from "../training/artifact-reader";
import { encodeImageInstances, imageSpecOf } from "./image-instances";

interface Pending {
  batch: EncodedBatch;
  resolve(p: Prediction[]): void;
  reject(err: unknown): void;
}

export interface MicroBatcherOptions {
  /** Most instances one model call runs (a larger single request still runs alone). */
  maxBatch?: number;
}

export class MicroBatcher {
  private queue: Pending[] = [];
  private running = false;
  private readonly maxBatch: number;
  /** Model calls made, for tests and metrics. */
  calls = 0;

  constructor(
    private readonly model: Pick<LoadedArtifact, "manifest" | "run">,
    opts: MicroBatcherOptions = {},
  ) {
    this.maxBatch = opts.maxBatch ?? 256;
  }

  /**
   * Validates and encodes the instances now (throws ValidationError), then runs them batched. An
   * image model's pictures are decoded first (image-instances.ts; a bad one rejects), outside the
   * model's queue.
   */
  predict(instances: readonly unknown[]): Promise<Prediction[]> {
    if (instances.length === 0) return Promise.resolve([]);
    const image = imageSpecOf(this.model.manifest);
    if (image) return encodeImageInstances(image, instances).then((batch) => this.predictEncoded(batch));
    return this.predictEncoded(encodeInstances(this.model.manifest, instances));
  }

  /** Runs already encoded inputs batched with the other requests. */
  predictEncoded(batch: EncodedBatch): Promise<Prediction[]> {
    if (batch.count === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ batch, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  /** Runs queued requests, a batch at a time, until the queue is empty. */
  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const items: Pending[] = [this.queue.shift() as Pending];
        let count = items[0].batch.count;
        while (this.queue.length > 0 && count + this.queue[0].batch.count <= this.maxBatch) {
          const next = this.queue.shift() as Pending;
          items.push(next);
          count += next.batch.count;
        }
        await this.runItems(items, count);
      }
    } finally {
      this.running = false;
    }
  }

  private async runItems(items: Pending[], count: number): Promise<void> {
    try {
      const batch = items.length === 1 ? items[0].batch : { count, values: concat(items) };
      this.calls++;
      const predictions = decodeOutputs(this.model.manifest, await this.model.run(batch), count);
      let at = 0;
      for (const p of items) {
        p.resolve(predictions.slice(at, at + p.batch.count));
        at += p.batch.count;
      }
    } catch (err) {
      for (const p of items) p.reject(err);
    }
  }
}

function concat(items: Pending[]): Float32Array | Int32Array {
  const length = items.reduce((n, p) => n + p.batch.values.length, 0);
  const values =
    items[0].batch.values instanceof Int32Array ? new Int32Array(length) : new Float32Array(length);
  let offset = 0;
  for (const p of items) {
    values.set(p.batch.values, offset);
    offset += p.batch.values.length;
  }
  return values;
}
