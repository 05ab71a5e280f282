import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_REASON_CHARS, summarizeFailure } from "@/lib/server/modules/training/failure-reason";

/**
 * A failed job's `reason` is shown wherever the job is (lists, status history, streams, shared
 * pages): one short line, no traceback and no server paths. The traceback goes to the owner's log.
 */
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-job-"));
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

/** Runs a Python program in the job directory; returns its stderr (a real traceback). */
function pythonStderr(source: string): { stderr: string; status: number | null } {
  const script = path.join(workDir, "project", "train.py");
  fs.mkdirSync(path.dirname(script), { recursive: true });
  fs.writeFileSync(script, source);
  const r = spawnSync("/usr/bin/python3", [script], { cwd: workDir, encoding: "utf8" });
  return { stderr: r.stderr, status: r.status };
}

describe("a failed job's reason", () => {
  it("is the exception's last line without traceback or paths; the traceback goes to the log", () => {
    const { stderr, status } = pythonStderr(
      [
        "import json, os",
        "def load(p):",
        "    with open(p) as f:",
        "        return json.load(f)",
        "def check(shape):",
        "    raise ValueError(f'Expected input of shape (4,), got {shape} in ' + os.path.abspath('data/train.csv'))",
        "def main():",
        "    check((3,))",
        "main()",
      ].join("\n"),
    );
    expect(status).toBe(1);
    expect(stderr).toContain("Traceback (most recent call last):");
    expect(stderr).toContain(workDir);

    const { reason, log } = summarizeFailure(stderr, { exitCode: status, signal: null }, workDir);
    expect(reason).toBe(
      "The training program exited with code 1: ValueError: Expected input of shape (4,), got (3,) in train.csv",
    );
    expect(reason).not.toContain("Traceback");
    expect(reason).not.toMatch(/\/(?:tmp|usr|home|var|srv|root)\b/);
    expect(reason.length).toBeLessThanOrEqual(MAX_REASON_CHARS);
    // The owner's log keeps the traceback, with the job's directory shown as `.`.
    expect(log).toContain("Traceback (most recent call last):");
    expect(log).toContain('File "./project/train.py", line 6, in check');
    expect(log).not.toContain(workDir);
  });

  it("stays short for a long message, an exception raised from a library, or a chained one", () => {
    const long = pythonStderr(`raise RuntimeError("x" * 20000)`);
    const a = summarizeFailure(long.stderr, { exitCode: long.status, signal: null }, workDir);
    expect(a.reason.length).toBeLessThanOrEqual(MAX_REASON_CHARS);
    expect(a.reason).toMatch(/^The training program exited with code 1: RuntimeError: x+…$/);

    const lib = pythonStderr(
      [
        "import json",
        "try:",
        "    json.loads('{')",
        "except ValueError as e:",
        "    raise KeyError('label') from e",
      ].join("\n"),
    );
    const b = summarizeFailure(lib.stderr, { exitCode: lib.status, signal: null }, workDir);
    expect(lib.stderr).toMatch(/json\/decoder\.py/);
    expect(b.reason).toBe("The training program exited with code 1: KeyError: 'label'");
  });

  it("names the signal when the program was killed, and says nothing more without stderr", () => {
    expect(summarizeFailure("", { exitCode: null, signal: "SIGKILL" }).reason).toBe(
      "The training program exited with signal SIGKILL.",
    );
    // A Node.js (TF.js) program's error: the message line, not its stack.
    const node =
      "file:///srv/layerline/jobs/j1/project/train.mjs:12\nError: Shapes do not match: [16,4] and [8,3]\n    at train (/srv/layerline/jobs/j1/project/train.mjs:12:9)\n";
    expect(summarizeFailure(node, { exitCode: 1, signal: null }).reason).toBe(
      "The training program exited with code 1: Error: Shapes do not match: [16,4] and [8,3]",
    );
  });
});
