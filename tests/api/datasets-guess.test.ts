import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_DATASETS, builtinDir } from "@/lib/server/modules/datasets/builtin";
import { signUpWithKey } from "../helpers";
import { csv, startDatasetTestApp, upload } from "./datasets-helpers";

/**
 * The upload's guess of the target and the task, through the API: every built-in dataset uploaded as
 * a user's own file must come back with the target and task its curators chose, and awkward CSVs (an id
 * column first, numeric labels, the target in the middle, a regression target) get the obvious guess.
 */
const { app } = await startDatasetTestApp("guess");
const { key } = await signUpWithKey(app);

async function guessOf(content: string, fileName: string) {
  const res = await upload(app, key, content, fileName);
  expect(res.status, res.text).toBe(201);
  const { roles, task } = res.json.dataset as { roles: Record<string, string>; task: string | null };
  const target = Object.entries(roles).find(([, r]) => r === "target")?.[0] ?? null;
  return { roles, task, target };
}

describe("every built-in dataset, uploaded as a user's own file", () => {
  for (const b of BUILTIN_DATASETS) {
    it(`${b.file}: target ${b.target ?? "none"}, task ${b.task}`, async () => {
      const content = fs.readFileSync(path.join(builtinDir(), b.file), "utf8");
      const guess = await guessOf(content, b.file);
      expect(guess.task).toBe(b.task);
      if (b.format === "csv") expect(guess.target).toBe(b.target);
    });
  }
});

describe("awkward CSVs", () => {
  const rows = (n: number, row: (i: number) => (string | number)[]) =>
    Array.from({ length: n }, (_, i) => row(i));

  it("an id column first and numeric labels last: the id is an id, the labels the target", async () => {
    const content = csv([
      ["id", "height", "weight", "grade"],
      ...rows(60, (i) => [1000 + i, 150 + (i % 17), 50 + ((i * 7) % 23), i % 3]),
    ]);
    const guess = await guessOf(content, "grades.csv");
    expect(guess.roles).toEqual({ id: "id", height: "feature", weight: "feature", grade: "target" });
    expect(guess.task).toBe("classification");
  });

  it("the target in the middle, named like one: it wins over a last column with few values", async () => {
    const content = csv([
      ["age", "outcome", "income", "region"],
      ...rows(80, (i) => [
        20 + (i % 40),
        i % 2 ? "churned" : "stayed",
        1000 + i * 13.5,
        ["n", "s", "e"][i % 3],
      ]),
    ]);
    const guess = await guessOf(content, "churn.csv");
    expect(guess.target).toBe("outcome");
    expect(guess.roles.region).toBe("feature");
    expect(guess.task).toBe("classification");
  });

  it("a float target named like one is regression", async () => {
    const content = csv([
      ["rooms", "area", "price"],
      ...rows(50, (i) => [1 + (i % 5), 40 + i * 3, 100000 + i * 2345.5]),
    ]);
    const guess = await guessOf(content, "houses.csv");
    expect(guess.target).toBe("price");
    expect(guess.task).toBe("regression");
  });

  it("no column could be the target: nothing is guessed and the task is left open", async () => {
    const content = csv([["x", "y2"], ...rows(40, (i) => [i * 1.5, i * 2.25])]);
    const guess = await guessOf(content, "floats.csv");
    expect(guess.target).toBeNull();
    expect(guess.task).toBeNull();
  });
});
