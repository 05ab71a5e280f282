import { describe, expect, it } from "vitest";
import type { ColumnType, DatasetProfile, DatasetSchemaInfo } from "../../db/schema/datasets";
import { guessRoles, inferTask } from "./roles";

type Col = [name: string, type: ColumnType, distinct: number, missing?: number];

function table(rows: number, cols: Col[]): { schema: DatasetSchemaInfo; profile: DatasetProfile } {
  return {
    schema: {
      format: "csv",
      columns: cols.map(([name, type]) => ({ name, type, source_type: "" })),
    } as DatasetSchemaInfo,
    profile: {
      row_count: rows,
      columns: cols.map(([name, type, distinct, missing = 0]) => ({
        name,
        type,
        count: rows,
        missing,
        distinct,
      })),
      duration_ms: 0,
    } as DatasetProfile,
  };
}

describe("guessRoles", () => {
  it("takes a column named like a target, wherever it is", () => {
    const { schema, profile } = table(150, [
      ["species", "string", 3],
      ["sepal_length", "float", 35],
      ["petal_width", "float", 22],
    ]);
    const roles = guessRoles(schema, profile);
    expect(roles).toEqual({ species: "target", sepal_length: "feature", petal_width: "feature" });
    expect(inferTask(schema, profile, roles)).toBe("classification");
  });

  it("else the last column with few distinct values; a unique id is an id, dates and free text are ignored", () => {
    const { schema, profile } = table(200, [
      ["customer_id", "integer", 200],
      ["signed_up", "date", 180],
      ["comment", "string", 190],
      ["age", "integer", 60],
      ["spend", "float", 195],
      ["plan", "string", 3],
      ["score", "float", 150],
    ]);
    expect(guessRoles(schema, profile)).toEqual({
      customer_id: "id",
      signed_up: "ignored",
      comment: "ignored",
      age: "feature",
      spend: "feature",
      plan: "target",
      score: "feature",
    });
  });

  it("names win over values, and target names are compared without case or separators", () => {
    const { schema, profile } = table(100, [
      ["Outcome", "integer", 2],
      ["group", "string", 4],
    ]);
    expect(guessRoles(schema, profile)).toMatchObject({ Outcome: "target", group: "feature" });
    const spaced = table(100, [
      ["group", "string", 4],
      ["Heart_Disease Class", "float", 300],
      ["y", "integer", 2],
    ]);
    expect(guessRoles(spaced.schema, spaced.profile)).toMatchObject({ y: "target", group: "feature" });
  });

  it("a stronger name wins: label over y", () => {
    const { schema, profile } = table(500, [
      ["x", "integer", 500],
      ["y", "integer", 7],
      ["label", "string", 2],
    ]);
    expect(guessRoles(schema, profile)).toMatchObject({ x: "feature", y: "feature", label: "target" });
  });

  it("ignores strings too varied to be categories (e-mails, names), keeps real categories", () => {
    const { schema, profile } = table(60, [
      ["customer_id", "integer", 60],
      ["contact_email", "string", 60],
      ["signup_channel", "string", 4],
      ["plan", "string", 3],
    ]);
    expect(guessRoles(schema, profile)).toEqual({
      customer_id: "id",
      contact_email: "ignored",
      signup_channel: "feature",
      plan: "target",
    });
  });

  it("guesses no target when no column could be one (the user picks it)", () => {
    const { schema, profile } = table(50, [
      ["x", "float", 50],
      ["y2", "float", 48],
    ]);
    const roles = guessRoles(schema, profile);
    expect(Object.values(roles)).not.toContain("target");
    expect(inferTask(schema, profile, roles)).toBeNull();
  });

  it("a regression target named like one is taken (a float with many values)", () => {
    const { schema, profile } = table(300, [
      ["rooms", "integer", 8],
      ["target", "float", 280],
    ]);
    const roles = guessRoles(schema, profile);
    expect(roles.target).toBe("target");
    expect(inferTask(schema, profile, roles)).toBe("regression");
  });
});
