import { describe, expect, it } from "vitest";
import { trainingConfigSchema } from "@/lib/ml";
import {
  fieldLabel,
  fieldText,
  layerFields,
  type ParamField,
  parseFieldText,
  rangeText,
  schemaFields,
  validateField,
  validateLayerParam,
} from "./param-form";

const field = (type: Parameters<typeof layerFields>[0], name: string): ParamField => {
  const f = layerFields(type).find((x) => x.name === name);
  if (!f) throw new Error(`no field ${name}`);
  return f;
};

const trainingField = (name: string): ParamField => {
  const f = schemaFields(trainingConfigSchema).find((x) => x.name === name);
  if (!f) throw new Error(`no field ${name}`);
  return f;
};

describe("form fields from zod schemas", () => {
  it("describes the training configuration with its ranges", () => {
    const fields = schemaFields(trainingConfigSchema);
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(byName.epochs).toMatchObject({ kind: "int", min: 1, max: 1000, default: 10 });
    expect(byName.batch_size).toMatchObject({ kind: "int", min: 1, max: 1024 });
    expect(byName.learning_rate).toMatchObject({ kind: "number", exclusiveMin: 0, max: 1 });
    expect(byName.optimizer).toMatchObject({ kind: "enum", options: ["adam", "adamw", "sgd", "rmsprop"] });
  });

  it("describes layer params: ints, enums, booleans, int arrays", () => {
    expect(field("Conv2D", "out_channels")).toMatchObject({ kind: "int", min: 1 });
    expect(field("Conv2D", "activation").kind).toBe("enum");
    expect(field("Conv2D", "bias").kind).toBe("boolean");
    expect(field("Input", "shape")).toMatchObject({ kind: "int_array", minItems: 1, maxItems: 4 });
    expect(field("Output", "num_classes").optional).toBe(true);
  });

  it("labels, texts and ranges", () => {
    expect(fieldLabel("out_channels")).toBe("Out channels");
    expect(fieldText(field("Input", "shape"), [1, 28, 28])).toBe("1, 28, 28");
    expect(fieldText(field("Dense", "units"), undefined)).toBe("64");
    const lr = trainingField("learning_rate");
    expect(rangeText(lr)).toBe("greater than 0 and at most 1");
    const epochs = trainingField("epochs");
    expect(rangeText(epochs)).toBe("between 1 and 1000");
  });
});

describe("parsing and validating what the user types", () => {
  it("numbers: syntax, whole numbers and ranges", () => {
    const units = field("Dense", "units");
    expect(parseFieldText(units, "128")).toEqual({ ok: true, value: 128 });
    expect(parseFieldText(units, "12a")).toEqual({ ok: false, error: "Enter a number" });
    expect(parseFieldText(units, "1.5")).toEqual({ ok: false, error: "Enter a whole number" });
    expect(parseFieldText(units, "0")).toMatchObject({ ok: false, error: expect.stringMatching(/^Must be/) });
    expect(parseFieldText(units, "")).toEqual({ ok: false, error: "Required" });
    const lr = trainingField("learning_rate");
    expect(parseFieldText(lr, "0")).toEqual({ ok: false, error: "Must be greater than 0 and at most 1" });
    expect(parseFieldText(lr, "3e-4")).toEqual({ ok: true, value: 0.0003 });
  });

  it("optional fields accept empty", () => {
    expect(parseFieldText(field("Output", "num_classes"), " ")).toEqual({ ok: true, value: undefined });
  });

  it("arrays as comma-separated text", () => {
    const shape = field("Input", "shape");
    expect(parseFieldText(shape, "1, 28, 28")).toEqual({ ok: true, value: [1, 28, 28] });
    expect(parseFieldText(shape, "[3,32,32]")).toEqual({ ok: true, value: [3, 32, 32] });
    expect(parseFieldText(shape, "1, x")).toMatchObject({ ok: false });
    expect(parseFieldText(shape, "1, 0")).toMatchObject({
      ok: false,
      error: expect.stringContaining("between 1 and"),
    });
    expect(parseFieldText(shape, "1,2,3,4,5")).toEqual({ ok: false, error: "Enter at most 4 dimensions" });
  });

  it("enums and booleans", () => {
    expect(parseFieldText(field("Dense", "activation"), "relu")).toEqual({ ok: true, value: "relu" });
    expect(parseFieldText(field("Dense", "activation"), "nope")).toMatchObject({ ok: false });
    expect(parseFieldText(field("Dense", "bias"), "false")).toEqual({ ok: true, value: false });
  });

  it("runs the schema's own rules (refinements)", () => {
    const reshape = field("Reshape", "shape");
    expect(validateLayerParam("Reshape", reshape, "-1, -1")).toEqual({
      ok: false,
      error: "at most one dimension may be -1",
    });
    expect(validateLayerParam("Reshape", reshape, "-1, 8")).toEqual({ ok: true, value: [-1, 8] });
    const epochs = trainingField("epochs");
    expect(validateField(trainingConfigSchema, epochs, "20")).toEqual({ ok: true, value: 20 });
    expect(validateField(trainingConfigSchema, epochs, "2000")).toMatchObject({ ok: false });
  });
});
