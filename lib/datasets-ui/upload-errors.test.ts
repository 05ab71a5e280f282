import { describe, expect, it } from "vitest";
import { describeUploadError, precheckFile, quotaUsage } from "./upload-errors";

const MB = 1024 * 1024;

describe("describeUploadError", () => {
  it("explains 402 with the server's detail and points at the plan", () => {
    const v = describeUploadError(402, { detail: "Your plan allows dataset files of up to 200 MB." });
    expect(v.title).toBe("Over your plan's limits");
    expect(v.message).toBe("Your plan allows dataset files of up to 200 MB.");
    expect(v.upgrade).toBe(true);
  });
  it("explains 413", () => {
    expect(describeUploadError(413, null)).toMatchObject({ title: "File too large", upgrade: false });
  });
  it("collects 422 field errors by form field", () => {
    const v = describeUploadError(422, {
      detail: "The form fields did not pass validation.",
      errors: [
        { path: "name", message: "Too long" },
        { path: "body.description", message: "Too long" },
      ],
    });
    expect(v.fields).toEqual({ name: "Too long", description: "Too long" });
    expect(v.message).toBe("The form fields did not pass validation. name: Too long description: Too long");
  });
  it("uses the detail alone when the field list adds nothing", () => {
    const v = describeUploadError(422, { detail: "The file is not a table we can read." });
    expect(v.message).toBe("The file is not a table we can read.");
    const gz = "Compressed (gzip) files are not supported.";
    expect(describeUploadError(422, { detail: gz, errors: [{ path: "file", message: gz }] }).message).toBe(
      gz,
    );
    expect(describeUploadError(422, null).message).toBe("The server could not read this file.");
  });
  it("explains a lost connection", () => {
    expect(describeUploadError(0, null).title).toBe("Upload interrupted");
  });
});

describe("precheckFile", () => {
  const quota = { per_file_limit_bytes: 200 * MB, remaining_bytes: 100 * MB };
  it("stops empty, too large and over-quota files before sending", () => {
    expect(precheckFile(0, quota)?.title).toBe("Empty file");
    expect(precheckFile(300 * MB, quota)?.message).toBe(
      "This file is 300 MB; your plan accepts files up to 200 MB.",
    );
    expect(precheckFile(150 * MB, quota)?.title).toBe("Not enough storage left");
    expect(precheckFile(10 * MB, quota)).toBeNull();
    expect(precheckFile(10 * MB, undefined)).toBeNull();
  });
});

describe("quotaUsage", () => {
  it("warns from 80% and alarms from 95%", () => {
    expect(quotaUsage(0, 100)).toEqual({ share: 0, tone: "ok" });
    expect(quotaUsage(80, 100).tone).toBe("warn");
    expect(quotaUsage(99, 100).tone).toBe("danger");
    expect(quotaUsage(150, 100).share).toBe(1);
  });
});
