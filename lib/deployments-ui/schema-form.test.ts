import { describe, expect, it } from "vitest";
import {
  formFields,
  instanceFromValues,
  missingFields,
  parseRawBody,
  textFieldOf,
  unknownFields,
  unknownFromInstance,
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
    const example = { sepal_length: 5.1, species_hint: "a", note: null };
    const values = valuesFromInstance(fields, example);
    expect(values).toEqual({ sepal_length: "5.1", species_hint: "a", note: "" });
    expect(instanceFromValues(fields, values, unknownFromInstance(fields, example))).toEqual(example);
  });

  it("leaves blank fields out (the server names them), sends unknown ones as null and a non-number as typed", () => {
    expect(instanceFromValues(fields, { sepal_length: "", species_hint: "", note: "x" })).toEqual({
      species_hint: null, // the select's “(unknown)” is a choice
      note: "x",
    });
    expect(
      instanceFromValues(fields, { sepal_length: "", species_hint: "a", note: "" }, ["sepal_length", "note"]),
    ).toEqual({ sepal_length: null, species_hint: "a", note: null });
    expect(
      instanceFromValues(fields, { sepal_length: "abc", species_hint: "b", note: "" }).sepal_length,
    ).toBe("abc");
  });

  it("reads null back as unknown", () => {
    expect(unknownFromInstance(fields, { sepal_length: null, species_hint: null, note: "x" })).toEqual([
      "sepal_length",
    ]);
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

describe("missingFields and unknownFields", () => {
  const fields = [
    { kind: "number" as const, name: "a", nullable: true },
    { kind: "number" as const, name: "b", nullable: false },
    { kind: "enum" as const, name: "c", options: ["x"], nullable: true },
    { kind: "enum" as const, name: "e", options: ["x"], nullable: false },
    { kind: "text" as const, name: "d", nullable: false, multiline: true },
  ];

  it("names every blank field not marked unknown (a language model's text may be empty)", () => {
    expect(missingFields(fields, { a: " ", b: "", c: "", e: "", d: "" })).toEqual(["a", "b", "e"]);
    expect(missingFields(fields, { a: "", b: "2", c: "", e: "x", d: "" }, ["a"])).toEqual([]);
    // Only a field that allows null can be unknown.
    expect(missingFields(fields, { a: "1", b: "", c: "x", e: "x", d: "" }, ["b"])).toEqual(["b"]);
  });

  it("names the fields sent as unknown, not the filled or required ones", () => {
    expect(unknownFields(fields, { a: "", b: "1.5", c: "", e: "x", d: "" }, ["a", "b"])).toEqual(["a", "c"]);
  });
});
