/**
 * The Audits page's runnable example (issue 25): the curl it shows, run as a shell command with a
 * personal key against this server, publishes an audit the report page can show.
 */
import "@/lib/server/app";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditCurl, EXAMPLE_AUDIT_BODY } from "@/lib/audits/example";
import { call, serveForUploads, signUpWithKey, startTestApp, type TestApp } from "../helpers";

let app: TestApp;
let close: () => void = () => {};
let key = "";

beforeAll(async () => {
  app = await startTestApp();
  close = await serveForUploads(app);
  ({ key } = await signUpWithKey(app));
});

afterAll(() => close());

describe("the Audits page's curl", () => {
  it("publishes the example audit when run in a shell", async () => {
    const origin = process.env.LAYERLINE_INTERNAL_URL ?? "";
    const command = auditCurl(origin);
    expect(command).not.toMatch(/cli\/|src\/|\.ts\b/);
    // The body shown (one call per line) is exactly the example.
    expect(JSON.parse(command.slice(command.indexOf("-d '") + 4, -1))).toEqual(EXAMPLE_AUDIT_BODY);
    const { stdout } = await promisify(execFile)("bash", ["-c", `${command} --silent --show-error`], {
      env: { ...process.env, LAYERLINE_API_KEY: key },
    });
    const audit = JSON.parse(stdout);
    expect(audit).toMatchObject({ name: EXAMPLE_AUDIT_BODY.name, state: "running" });
    expect(audit.workloads).toHaveLength(1);
    const report = await call(app, "GET", `/api/v1/audits/${audit.id}/report`, { key });
    expect(report.status, report.text).toBe(200);
    expect(report.json.workloads[0].name).toBe("ticket-classifier");
  });
});
