import { describe, expect, it } from "vitest";
import {
  blankFields,
  formFields,
  instanceFromValues,
  parseRawBody,
  textFieldOf,
  valuesFromInstance,
} from "./schema-form";

const iris = {
  type: "object",
  properties: {
    sepal_length: { type: ["number", "null"] },
    species_hint: { type: ["string", "null"], enum: ["a", "b", null] },
    note: { type: ["string", "null"] },
  },
  required: ["sepal_length", "species_hint", "note"],
};
const text = {
  type: "object",
  properties: { text: { type: "string", description: "The text so far." } },
  required: ["text"],
};

describe("formFields", () => {
  it("makes number inputs, selects for enums and text inputs for strings", () => {
    expect(formFields(iris)).toEqual([
      { kind: "number", name: "sepal_length", nullable: true },
      { kind: "enum", name: "species_hint", options: ["a", "b"], nullable: true },
      { kind: "text", name: "note", nullable: true, multiline: false, description: undefined },
    ]);
  });

  it("gives a language model's one text a text area, and knows it is a language model", () => {
    expect(formFields(text)).toEqual([
      { kind: "text", name: "text", nullable: false, multiline: true, description: "The text so far." },
    ]);
    expect(textFieldOf(text)).toBe("text");
    expect(textFieldOf(iris)).toBeNull();
  });

  it("refuses what it cannot draw (an image's flat array), so the raw JSON editor is used", () => {
    expect(formFields({ type: "array", items: { type: "number" } })).toBeNull();
    expect(formFields({ type: "object", properties: { x: { type: "object" } } })).toBeNull();
  });
});

describe("values", () => {
  const fields = formFields(iris) ?? [];
  it("round-trips the example instance", () => {
    const values = valuesFromInstance(fields, { sepal_length: 5.1, species_hint: "a", note: null });
    expect(values).toEqual({ sepal_length: "5.1", species_hint: "a", note: "" });
    expect(instanceFromValues(fields, values)).toEqual({ sepal_length: 5.1, species_hint: "a", note: null });
  });

  it("sends empty optional fields as null and a non-number as typed (the server names the field)", () => {
    expect(instanceFromValues(fields, { sepal_length: "", species_hint: "", note: "x" })).toEqual({
      sepal_length: null,
      species_hint: null,
      note: "x",
    });
    expect(
      instanceFromValues(fields, { sepal_length: "abc", species_hint: "b", note: "" }).sepal_length,
    ).toBe("abc");
  });
});

describe("parseRawBody", () => {
  it("accepts a predict body and explains what is wrong otherwise", () => {
    expect(parseRawBody('{"inputs":[{"a":1}]}')).toEqual({ ok: true, inputs: [{ a: 1 }] });
    expect(parseRawBody("{").ok).toBe(false);
    expect(parseRawBody('{"x":[]}')).toEqual({
      ok: false,
      error: 'The body must be an object with an "inputs" array.',
    });
    expect(parseRawBody('{"inputs":[]}')).toEqual({
      ok: false,
      error: '"inputs" needs at least one instance.',
    });
  });
});

describe("blankFields", () => {
  it("names the optional fields left blank, not the filled or required ones", () => {
    const fields = [
      { kind: "number" as const, name: "a", nullable: true },
      { kind: "number" as const, name: "b", nullable: true },
      { kind: "enum" as const, name: "c", options: ["x"], nullable: true },
      { kind: "text" as const, name: "d", nullable: false, multiline: true },
    ];
    expect(blankFields(fields, { a: " ", b: "1.5", c: "", d: "" })).toEqual(["a", "c"]);
  });
});
