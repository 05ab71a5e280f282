import { describe, expect, it } from "vitest";
import { pushStreamResponse } from "./push-stream";

const settle = () => new Promise((r) => setTimeout(r, 20));

describe("pushStreamResponse", () => {
  it("pauses a producer while nobody reads, then delivers everything in order", async () => {
    let written = 0;
    const res = pushStreamResponse(
      async (write) => {
        for (let i = 0; i < 1000; i++) {
          await write(`${String(i).padStart(4, "0")}${"x".repeat(1020)}`);
          written++;
        }
      },
      { headers: { "Content-Type": "text/plain" } },
    );
    await settle();
    // 64 KiB of 1 KiB chunks queue up, then the producer waits.
    expect(written).toBeGreaterThan(50);
    expect(written).toBeLessThan(70);
    const text = await res.text();
    expect(written).toBe(1000);
    expect(text).toHaveLength(1000 * 1024);
    expect(text.slice(999 * 1024, 999 * 1024 + 4)).toBe("0999");
  });

  it("aborts the producer's signal when the client cancels, releasing a waiting write", async () => {
    let aborted = false;
    let finished = false;
    const res = pushStreamResponse(
      async (write, signal) => {
        while (!signal.aborted) await write("y".repeat(1024));
        aborted = true;
        finished = true;
      },
      { headers: {} },
    );
    await settle();
    await res.body?.cancel();
    await settle();
    expect(aborted).toBe(true);
    expect(finished).toBe(true);
  });

  it("follows the request's signal", async () => {
    const ctrl = new AbortController();
    let seen = false;
    const res = pushStreamResponse(
      async (write, signal) => {
        await write("a");
        if (!signal.aborted)
          await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
        seen = true;
      },
      { headers: {}, requestSignal: ctrl.signal },
    );
    await settle();
    ctrl.abort();
    expect(await res.text()).toBe("a");
    expect(seen).toBe(true);
  });
});
