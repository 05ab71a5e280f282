import { describe, expect, it } from "vitest";
import { inferTask, type RoleColumn, rolesPatch, suggestRoles, validateRoles } from "./roles";

const columns: RoleColumn[] = [
  { name: "customer_id", type: "integer", distinct: 60, missing: 0 },
  { name: "age", type: "integer", distinct: 40, missing: 0 },
  { name: "score", type: "float", distinct: 60, missing: 2 },
  { name: "plan", type: "string", distinct: 3, missing: 0 },
  { name: "rating", type: "integer", distinct: 5, missing: 0 },
  { name: "joined", type: "date", distinct: 60, missing: 0 },
];

describe("inferTask", () => {
  it("follows the target's type and distinct values", () => {
    expect(inferTask("csv", columns, { plan: "target" })).toBe("classification");
    expect(inferTask("csv", columns, { rating: "target" })).toBe("classification");
    expect(inferTask("csv", columns, { age: "target" })).toBe("regression");
    expect(inferTask("csv", columns, { score: "target" })).toBe("regression");
    expect(inferTask("csv", columns, { joined: "target" })).toBeNull();
    expect(inferTask("csv", columns, { age: "feature" })).toBeNull();
  });
  it("is fixed for images and text", () => {
    expect(inferTask("image_zip", [], {})).toBe("image_classification");
    expect(inferTask("text", [], {})).toBe("language_modeling");
  });
});

describe("validateRoles", () => {
  it("refuses two targets and unknown columns", () => {
    const issues = validateRoles("csv", columns, { plan: "target", rating: "target", nope: "feature" });
    const errors = issues.filter((i) => i.severity === "error").map((i) => i.message);
    expect(errors).toHaveLength(2);
    expect(errors.join(" ")).toMatch(/Unknown column "nope"/);
    expect(errors.join(" ")).toMatch(/Only one column can be the target/);
  });
  it("advises on a missing target, missing features and missing target values", () => {
    expect(validateRoles("csv", columns, { age: "feature" }).map((i) => i.message)).toEqual([
      "No target yet: choose the column the model should predict.",
    ]);
    expect(validateRoles("csv", columns, { plan: "target" }).map((i) => i.severity)).toEqual(["warning"]);
    const score = validateRoles("csv", columns, { score: "target", age: "feature" });
    expect(score).toHaveLength(1);
    expect(score[0].message).toMatch(/2 missing values/);
  });
  it("accepts a sound set", () => {
    expect(validateRoles("csv", columns, { plan: "target", age: "feature", customer_id: "id" })).toEqual([]);
  });
});

describe("rolesPatch and suggestions", () => {
  it("sends only the changes, null for cleared roles", () => {
    const saved = { age: "feature" as const, plan: "feature" as const };
    expect(rolesPatch(saved, { age: "feature", plan: "target", score: null, rating: "ignored" })).toEqual({
      plan: "target",
      rating: "ignored",
    });
    expect(rolesPatch(saved, { age: null, plan: "feature" })).toEqual({ age: null });
  });
  it("suggests features, and ids for id-like names", () => {
    expect(suggestRoles(columns.slice(0, 2), { age: "target" })).toEqual({
      customer_id: "id",
      age: "target",
    });
  });
});
