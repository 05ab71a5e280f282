import { describe, expect, it } from "vitest";
import { splitText, textWindows } from "./text-rows";

describe("text windows for language-model evaluations", () => {
  it("cuts the text as training did: explicit line splits, else sequentially at validation_split", () => {
    const lines = ["abc", "def", "ghi"];
    const explicit = { train: [0, 2], validation: [1], test: [] };
    expect(splitText(lines, explicit, 0.2, "train")).toBe("abc\nghi");
    expect(splitText(lines, explicit, 0.2, "validation")).toBe("def");
    expect(splitText(lines, explicit, 0.2, "test")).toBe("");
    expect(splitText(lines, explicit, 0.2, "all")).toBe("abc\ndef\nghi");
    // 11 characters, 20% held out: the last round(11 × 0.2) = 2.
    expect(splitText(lines, null, 0.2, "train")).toBe("abc\ndef\ng");
    expect(splitText(lines, null, 0.2, "validation")).toBe("hi");
    expect(splitText(lines, null, 0.2, "test")).toBe("");
  });

  it("makes windows predicting the next character, skipping characters outside the vocabulary", () => {
    const w = textWindows("abXcab", ["a", "b", "c"], 2);
    expect(w).toMatchObject({ rows: 3, characters: 6, unknownCharacters: 1, sequenceLength: 2 });
    // ids: a b c a b → windows [a b]→c, [b c]→a, [c a]→b
    expect(w.batch(0, 10)).toEqual({ x: Int32Array.from([0, 1, 1, 2, 2, 0]), y: Int32Array.from([2, 0, 1]) });
    expect(w.batch(2, 10)).toEqual({ x: Int32Array.from([2, 0]), y: Int32Array.from([1]) });
    expect(textWindows("ab", ["a", "b"], 2).rows).toBe(0);
  });
});
