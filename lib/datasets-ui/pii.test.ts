import { describe, expect, it } from "vitest";
import { piiColumns, piiKindLabel, sortFlaggedFirst } from "./pii";

describe("piiColumns", () => {
  const findings = [
    { column: "notes", kind: "phone", count: 1, examples: ["+1 ***-***-**12"] },
    { column: "contact_email", kind: "email", count: 60, examples: ["j***@e***.com"] },
    { column: "notes", kind: "email", count: 2, examples: ["a***@b***.org"] },
  ];
  it("lists every column with its findings, most cells first", () => {
    const views = piiColumns(["id", "contact_email", "notes"], findings, 60);
    expect(views.map((v) => [v.column, v.flagged, v.cells])).toEqual([
      ["id", false, 0],
      ["contact_email", true, 60],
      ["notes", true, 2],
    ]);
    expect(views[1].share).toBe(1);
    expect(views[2].findings.map((f) => f.kind)).toEqual(["email", "phone"]);
  });
  it("puts flagged columns first", () => {
    const views = sortFlaggedFirst(piiColumns(["id", "notes", "contact_email", "age"], findings, 60));
    expect(views.map((v) => v.column)).toEqual(["contact_email", "notes", "id", "age"]);
  });
  it("labels kinds", () => {
    expect(piiKindLabel("email")).toBe("E-mail address");
    expect(piiKindLabel("new_kind")).toBe("new_kind");
  });
});
