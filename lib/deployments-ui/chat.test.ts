import { describe, expect, it } from "vitest";
import { errorText, sessionBody, tokenText } from "./chat";

describe("chat", () => {
  it("builds the session body from the conversation and settings", () => {
    expect(sessionBody([{ role: "user", content: "We hold" }], { temperature: 0.7, maxTokens: 40 })).toEqual({
      messages: [{ role: "user", content: "We hold" }],
      max_tokens: 40,
      temperature: 0.7,
    });
  });
  it("reads a token from an output event", () => {
    expect(tokenText('{"text":"a"}')).toBe("a");
    expect(tokenText('{"token":" "}')).toBe(" ");
    expect(tokenText('"b"')).toBe("b");
    expect(tokenText("{}")).toBeNull();
    expect(tokenText("nope")).toBeNull();
  });
  it("reads an error event's message", () => {
    expect(errorText('{"status":503,"detail":"The deployment is paused."}')).toBe(
      "The deployment is paused.",
    );
    expect(errorText("boom")).toBe("boom");
  });
});
