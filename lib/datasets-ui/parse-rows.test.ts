import { describe, expect, it } from "vitest";
import { parseDelimited, parseJsonLines, parseTextLines } from "./parse-rows";

const CSV = { delimiter: ",", quote: '"', escape: '"', hasHeader: true };

describe("parseDelimited", () => {
  it("reads a header and rows, with missing values as null", () => {
    const out = parseDelimited("a,b,c\n1,,x\n2,3,\n", CSV);
    expect(out.header).toEqual(["a", "b", "c"]);
    expect(out.rows).toEqual([
      ["1", null, "x"],
      ["2", "3", null],
    ]);
  });
  it("handles quotes, doubled quotes, delimiters and newlines inside quotes, CRLF and a BOM", () => {
    const text = '\ufeffname,note\r\n"Doe, Jane","said ""hi""\nthen left"\r\n"",plain\r\n';
    const out = parseDelimited(text, CSV);
    expect(out.header).toEqual(["name", "note"]);
    expect(out.rows).toEqual([
      ["Doe, Jane", 'said "hi"\nthen left'],
      ["", "plain"],
    ]);
  });
  it("supports a separate escape character, tabs, no header and skipped lines", () => {
    const text = "# comment\nx\t'it\\'s'\ny\tz";
    const out = parseDelimited(text, {
      delimiter: "\t",
      quote: "'",
      escape: "\\",
      hasHeader: false,
      skipRows: 1,
    });
    expect(out.header).toBeNull();
    expect(out.rows).toEqual([
      ["x", "it's"],
      ["y", "z"],
    ]);
  });
  it("skips blank lines and keeps a last line without newline", () => {
    const out = parseDelimited("a\n1\n\n2", CSV);
    expect(out.rows).toEqual([["1"], ["2"]]);
  });
  it("reads 100,000 rows quickly", () => {
    const lines = ["id,label,value"];
    for (let i = 0; i < 100_000; i++)
      lines.push(`${i},${i % 3 === 0 ? "yes" : "no"},${(i * 0.37).toFixed(3)}`);
    const started = performance.now();
    const out = parseDelimited(lines.join("\n"), CSV);
    expect(out.rows.length).toBe(100_000);
    expect(out.rows[99_999]).toEqual(["99999", "yes", "36999.630"]);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe("JSON Lines and text", () => {
  it("takes the named columns of each object", () => {
    const out = parseJsonLines('{"a":1,"b":{"x":2}}\n\n{"a":null}\nnot json\n', ["a", "b"]);
    expect(out.rows).toEqual([
      ["1", '{"x":2}'],
      [null, null],
      [null, null],
    ]);
  });
  it("makes a row of every line", () => {
    expect(parseTextLines("one\r\n\ntwo\n").rows).toEqual([["one"], [""], ["two"]]);
  });
});
