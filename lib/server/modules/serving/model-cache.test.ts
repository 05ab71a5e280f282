import { describe, expect, it } from "vitest";
import type { ModelManifest } from "../training/artifact-reader";
import type { MicroBatcher } from "./micro-batcher";
import { ModelCache, type WarmModel } from "./model-cache";

/** Models that record when they are disposed (the batcher is not used by the cache itself). */
function loaderLog() {
  const disposed: string[] = [];
  const loads: string[] = [];
  const loader = async (id: string): Promise<WarmModel> => {
    loads.push(id);
    return {
      manifest: {} as ModelManifest,
      batcher: {} as MicroBatcher,
      async dispose() {
        disposed.push(id);
      },
    };
  };
  return { disposed, loads, loader };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("ModelCache", () => {
  it("loads a model once and keeps the most recently used ones", async () => {
    const { disposed, loads, loader } = loaderLog();
    const cache = new ModelCache<string>(loader, (id) => id, 2);
    await cache.with("a", async () => undefined);
    await cache.with("b", async () => undefined);
    await cache.with("a", async () => undefined); // a is now the most recent
    await cache.with("c", async () => undefined); // evicts b
    await tick();
    expect(loads).toEqual(["a", "b", "c"]);
    expect(disposed).toEqual(["b"]);
    expect(cache.size).toBe(2);
  });

  it("an evicted model in use is disposed only when its last request is done", async () => {
    const { disposed, loader } = loaderLog();
    const cache = new ModelCache<string>(loader, (id) => id, 1);
    let finish: () => void = () => {};
    const inUse = cache.with("a", () => new Promise<void>((resolve) => (finish = resolve)));
    await tick();
    await cache.with("b", async () => undefined); // evicts a while a request still uses it
    await tick();
    expect(disposed).toEqual([]);
    finish();
    await inUse;
    await tick();
    expect(disposed).toEqual(["a"]);
  });

  it("evict disposes idle models at once and busy ones after their requests", async () => {
    const { disposed, loader } = loaderLog();
    const cache = new ModelCache<string>(loader, (id) => id, 4);
    await cache.with("idle", async () => undefined);
    let finish: () => void = () => {};
    const inUse = cache.with("busy", () => new Promise<void>((resolve) => (finish = resolve)));
    await tick();
    cache.evict(["idle", "busy", "unknown"]);
    await tick();
    expect(disposed).toEqual(["idle"]);
    expect(cache.size).toBe(0);
    finish();
    await inUse;
    await tick();
    expect(disposed).toEqual(["idle", "busy"]);
  });
});
