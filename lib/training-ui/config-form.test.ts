import { describe, expect, it } from "vitest";
import {
  CONFIG_FIELDS,
  configFromTexts,
  initialTexts,
  splitServerErrors,
  validateTexts,
} from "./config-form";

describe("config form", () => {
  it("has a field per configuration entry, with the contract ranges", () => {
    const epochs = CONFIG_FIELDS.find((f) => f.name === "epochs");
    expect(epochs).toMatchObject({ kind: "int", min: 1, max: 1000 });
    expect(CONFIG_FIELDS.find((f) => f.name === "learning_rate")).toMatchObject({ exclusiveMin: 0, max: 1 });
    expect(CONFIG_FIELDS.find((f) => f.name === "optimizer")).toMatchObject({ kind: "enum" });
    expect(CONFIG_FIELDS.find((f) => f.name === "validation_split")).toMatchObject({ min: 0, max: 0.5 });
  });
  it("starts from the project's configuration", () => {
    const t = initialTexts({ epochs: 50, batch_size: 16 });
    expect(t.epochs).toBe("50");
    expect(t.batch_size).toBe("16");
    expect(t.optimizer).toBe("adam");
  });
  it("validates ranges as the user types", () => {
    const t = { ...initialTexts(undefined), epochs: "0", batch_size: "2000", learning_rate: "0", seed: "-1" };
    const errors = validateTexts(t);
    expect(Object.keys(errors).sort()).toEqual(["batch_size", "epochs", "learning_rate", "seed"]);
    expect(errors.epochs).toMatch(/between 1 and 1000/);
    expect(configFromTexts(t)).toBeNull();
  });
  it("builds the configuration when every field is valid", () => {
    const config = configFromTexts({ ...initialTexts(undefined), epochs: "3", learning_rate: "0.01" });
    expect(config).toMatchObject({ epochs: 3, learning_rate: 0.01, optimizer: "adam" });
  });
  it("maps the server's errors to fields", () => {
    expect(
      splitServerErrors([
        { path: "body.config.epochs", message: "Too many" },
        { path: "body.dataset_id", message: "No version" },
        { path: "graph.n1", message: "Shape mismatch" },
      ]),
    ).toEqual({
      fields: { epochs: "Too many", dataset_id: "No version" },
      other: ["graph.n1: Shape mismatch"],
    });
  });
});
