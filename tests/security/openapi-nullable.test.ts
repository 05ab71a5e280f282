/**
 * Nullable references in the OpenAPI document accept `null`. The generator renders `.nullable()` on
 * a registered schema as `allOf: [{$ref}, {type: ["object", "null"]}]`, which no `null` satisfies
 * (the `$ref` branch requires an object), so clients generated from the document rejected a hub
 * model without an architecture or a signed-out session. The document served by the app says
 * `anyOf: [{$ref}, {type: "null"}]` instead.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, startTestApp } from "../helpers";
import { type OpenApiDoc, validatorAt } from "../openapi-contract";

let doc: OpenApiDoc;

beforeAll(async () => {
  const app = await startTestApp();
  doc = (await call(app, "GET", "/api/v1/openapi.json")).json as OpenApiDoc;
});

/** JSON pointers (as parts) of every `allOf` whose members include a type allowing `null`. */
function nullInsideAllOf(node: unknown, at: string[] = []): string[][] {
  if (!node || typeof node !== "object") return [];
  const out: string[][] = [];
  const obj = node as Record<string, unknown>;
  const allOf = obj.allOf;
  if (
    Array.isArray(allOf) &&
    allOf.some((m) => {
      const type = (m as { type?: unknown } | null)?.type;
      return type === "null" || (Array.isArray(type) && type.includes("null"));
    })
  )
    out.push(at);
  for (const [k, v] of Object.entries(obj)) out.push(...nullInsideAllOf(v, [...at, k]));
  return out;
}

/** The six members that were rendered as an unsatisfiable `allOf`. */
const NULLABLE_REFS: string[][] = [
  ["components", "schemas", "HubModel", "allOf", "1", "properties", "architecture"],
  ["components", "schemas", "CreateHubModel", "properties", "architecture"],
  ["components", "schemas", "CreateHubModel", "properties", "training_config"],
  ["components", "schemas", "UpdateHubModel", "properties", "architecture"],
  ["components", "schemas", "UpdateHubModel", "properties", "training_config"],
  [
    "paths",
    "/api/auth/session",
    "get",
    "responses",
    "200",
    "content",
    "application/json",
    "schema",
    "properties",
    "user",
  ],
];

function at(parts: string[]): Record<string, unknown> {
  let node: unknown = doc;
  for (const p of parts) node = (node as Record<string, unknown>)[p];
  return node as Record<string, unknown>;
}

describe("nullable references in the OpenAPI document", () => {
  it("are never an allOf with a null type (which no null satisfies)", () => {
    expect(nullInsideAllOf(doc).map((p) => p.join("/"))).toEqual([]);
  });

  it("accept null, and still only the referenced shape otherwise", () => {
    for (const parts of NULLABLE_REFS) {
      const member = at(parts);
      expect(member, parts.join("/")).toMatchObject({
        anyOf: [{ $ref: expect.any(String) }, { type: "null" }],
      });
      const v = validatorAt(parts);
      expect(v(null), `${parts.join("/")}: ${JSON.stringify(v.errors)}`).toBe(true);
      expect(v("not an object"), parts.join("/")).toBe(false);
    }
  });

  it("keep the member's description beside the reference", () => {
    expect(at(NULLABLE_REFS[1]).description).toContain("architecture DAG");
  });
});
