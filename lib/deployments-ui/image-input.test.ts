import { describe, expect, it } from "vitest";
import { firstPicture, imageFieldOf, MAX_PICTURE_BYTES, pictureProblem } from "./image-input";

describe("image input", () => {
  it("recognises a picture schema and nothing else", () => {
    const picture = {
      type: "object",
      properties: { image: { type: "string", contentEncoding: "base64", contentMediaType: "image/png" } },
      required: ["image"],
    };
    expect(imageFieldOf(picture)).toBe("image");
    expect(
      imageFieldOf({ type: "object", properties: { text: { type: "string" } }, required: ["text"] }),
    ).toBeNull();
    expect(
      imageFieldOf({
        type: "object",
        properties: {
          blob: { type: "string", contentEncoding: "base64", contentMediaType: "application/pdf" },
        },
      }),
    ).toBeNull();
    expect(
      imageFieldOf({ type: "object", properties: { ...picture.properties, other: { type: "number" } } }),
    ).toBeNull();
    expect(imageFieldOf({ type: "array", items: { type: "number" } })).toBeNull();
  });

  it("checks a picture's type and size before sending it", () => {
    expect(pictureProblem({ type: "image/png", size: 1000 })).toBeNull();
    expect(pictureProblem({ type: "image/webp", size: MAX_PICTURE_BYTES })).toBeNull();
    expect(pictureProblem({ type: "image/svg+xml", size: 10 })).toMatch(/PNG, JPEG, WebP or GIF/);
    expect(pictureProblem({ type: "text/plain", size: 10 })).toMatch(/PNG/);
    expect(pictureProblem({ type: "image/jpeg", size: MAX_PICTURE_BYTES + 1 })).toMatch(/larger than 4 MB/);
    expect(pictureProblem({ type: "image/jpeg", size: 0 })).toMatch(/empty/);
  });

  it("takes the first picture of dropped or pasted items", () => {
    expect(firstPicture([{ type: "text/plain" }, { type: "image/gif" }, { type: "image/png" }])).toEqual({
      type: "image/gif",
    });
    expect(firstPicture([{ type: "text/html" }])).toBeNull();
  });
});
