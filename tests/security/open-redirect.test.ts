import { describe, expect, it } from "vitest";
import { DEFAULT_NEXT_PATH, safeNextPath } from "@/lib/auth/safe-next";

/**
 * `/login?next=…` (and /signup) send a user who signs in to a path on this site only. The value is
 * what URLSearchParams.get returns (decoded once), as the sign-in form reads it.
 */
const nextOf = (query: string) => safeNextPath(new URLSearchParams(query).get("next"));

describe("next= after signing in", () => {
  it.each([
    "/%5Cevil.example", // `/\evil.example` once decoded: Chromium goes to http://evil.example/
    "/%255Cevil.example",
    "//evil.example",
    "/\\evil",
    "\\\\evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "/\t/evil.example",
    "/\n/evil.example",
    "/%09/evil.example",
    "%2F%2Fevil.example",
    "/%2F/evil.example",
    "evil.example",
    "",
    "/%E0%A4%A",
  ])("refuses %j", (value) => {
    expect(safeNextPath(value)).toBe(DEFAULT_NEXT_PATH);
  });

  it("refuses them as they arrive in the query string", () => {
    expect(nextOf("next=/%5Cevil.example")).toBe(DEFAULT_NEXT_PATH);
    expect(nextOf("next=%2F%2Fevil.example")).toBe(DEFAULT_NEXT_PATH);
    expect(nextOf("next=/%09/evil.example")).toBe(DEFAULT_NEXT_PATH);
    expect(nextOf("")).toBe(DEFAULT_NEXT_PATH);
  });

  it("keeps a path on this site, with its query and fragment", () => {
    expect(safeNextPath("/hub/hub_123?tab=reviews")).toBe("/hub/hub_123?tab=reviews");
    expect(nextOf(`next=${encodeURIComponent("/hub/hub_123?tab=reviews#r")}`)).toBe(
      "/hub/hub_123?tab=reviews#r",
    );
    expect(safeNextPath("/projects/p%20q")).toBe("/projects/p%20q");
    expect(safeNextPath("/")).toBe("/");
  });
});
