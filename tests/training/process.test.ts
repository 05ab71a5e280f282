/**
 * The executors' child-process runner: lines to a callback, the tail of stderr, a minimal
 * environment, a time limit and cancellation (SIGTERM, then SIGKILL for a program that ignores it).
 */
import { describe, expect, it } from "vitest";
import { childEnv, runProcess } from "@/lib/server/modules/training/executors/process";

const node = (
  script: string,
  extra: { signal?: AbortSignal; timeLimitMs?: number; onLine?: (l: string) => void } = {},
) =>
  runProcess({
    command: process.execPath,
    args: ["-e", script],
    cwd: process.cwd(),
    env: childEnv({ EXTRA: "yes" }, process.cwd()),
    killGraceMs: 300,
    ...extra,
  });

describe("runProcess", () => {
  it("forwards stdout lines, keeps stderr's tail and passes only the environment it is given", async () => {
    process.env.LAYERLINE_TEST_SECRET = "do-not-leak";
    const lines: string[] = [];
    const result = await node(
      "console.log('one'); process.stdout.write('two\\nthr'); process.stdout.write('ee\\n'); console.error('oops');" +
        "console.log(JSON.stringify([process.env.EXTRA, process.env.LAYERLINE_TEST_SECRET ?? null])); process.exit(3)",
      { onLine: (l) => lines.push(l) },
    );
    delete process.env.LAYERLINE_TEST_SECRET;
    expect(lines).toEqual(["one", "two", "three", '["yes",null]']);
    expect(result).toMatchObject({ exitCode: 3, signal: null, timedOut: false, stderrTail: "oops\n" });
  });

  it("stops a program on abort (SIGTERM) and at its time limit (SIGKILL when it ignores SIGTERM)", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const aborted = await node("setInterval(() => {}, 1000)", { signal: controller.signal });
    expect(aborted).toMatchObject({ exitCode: null, signal: "SIGTERM", timedOut: false });

    const stubborn = await node("process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)", {
      timeLimitMs: 300,
    });
    expect(stubborn).toMatchObject({ exitCode: null, signal: "SIGKILL", timedOut: true });
    expect(stubborn.wallSeconds).toBeLessThan(5);
  });

  it("reports a program that cannot start", async () => {
    const result = await runProcess({
      command: "/nonexistent/python",
      args: [],
      cwd: process.cwd(),
      env: {},
    });
    expect(result.exitCode).toBeNull();
    expect(result.stderrTail).toMatch(/ENOENT/);
  });
});
