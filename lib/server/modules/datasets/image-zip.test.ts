import { describe, expect, it } from "vitest";
import { classifyImageEntries, InvalidImageZipError } from "./image-zip";

describe("classifyImageEntries", () => {
  it("reads class folders, one wrapping folder, and ignores hidden files, __MACOSX and non-images", () => {
    expect(
      classifyImageEntries(["cats/1.png", "dogs/a/2.JPG", "notes.txt", ".DS_Store", "cats/.hidden.png"]),
    ).toEqual({
      layout: "classes",
      entries: [
        { path: "cats/1.png", label: "cats", split: null },
        { path: "dogs/a/2.JPG", label: "dogs", split: null },
      ],
    });
    expect(
      classifyImageEntries(["pets/", "pets/cats/1.png", "pets/dogs/2.webp", "__MACOSX/pets/._x.png"]),
    ).toEqual({
      layout: "wrapped",
      entries: [
        { path: "pets/cats/1.png", label: "cats", split: null },
        { path: "pets/dogs/2.webp", label: "dogs", split: null },
      ],
    });
  });

  it("reads split folders, in any case, val as validation, also inside one top folder", () => {
    const { layout, entries } = classifyImageEntries([
      "Train/cats/1.png",
      "train/dogs/2.png",
      "VAL/cats/3.png",
      "validation/dogs/4.png",
      "test/cats/5.gif",
    ]);
    expect(layout).toBe("splits");
    expect(entries.map((e) => [e.label, e.split])).toEqual([
      ["cats", "train"],
      ["dogs", "train"],
      ["cats", "validation"],
      ["dogs", "validation"],
      ["cats", "test"],
    ]);
    const wrapped = classifyImageEntries(["digits/train/0/a.png", "digits/test/1/b.png"]);
    expect(wrapped.layout).toBe("splits");
    expect(wrapped.entries.map((e) => [e.label, e.split])).toEqual([
      ["0", "train"],
      ["1", "test"],
    ]);
    // Only a train folder is still the split layout (its classes are the folders inside).
    expect(classifyImageEntries(["train/a/1.png", "train/b/2.png"]).entries.map((e) => e.label)).toEqual([
      "a",
      "b",
    ]);
  });

  it("keeps classes named like splits when they hold the images directly", () => {
    const r = classifyImageEntries(["train/1.png", "test/2.png"]);
    expect(r.layout).toBe("classes");
    expect(r.entries.map((e) => [e.label, e.split])).toEqual([
      ["train", null],
      ["test", null],
    ]);
  });

  it("refuses images outside class folders, and a mix of split and non-split folders", () => {
    expect(() => classifyImageEntries(["1.png", "2.png"])).toThrow(InvalidImageZipError);
    expect(() => classifyImageEntries(["readme.md"])).toThrow(/no images/);
    expect(() => classifyImageEntries(["train/cats/1.png", "dogs/2.png"])).toThrow(/or none of them/);
  });
});
