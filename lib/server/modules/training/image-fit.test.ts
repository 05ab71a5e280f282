import { describe, expect, it } from "vitest";
import type { ImageProfile } from "../../db/schema/datasets";
import { describeImageFit } from "./image-fit";

const profile: ImageProfile = {
  classes: [
    { name: "cat", count: 40 },
    { name: "dog", count: 38 },
    { name: "fox", count: 20 },
  ],
  sizes: [
    { width: 28, height: 28, count: 50 },
    { width: 64, height: 48, count: 48 },
  ],
  width: { min: 28, max: 64 },
  height: { min: 28, max: 48 },
  formats: [{ format: "png", count: 98 }],
  channels: [
    { channels: 1, count: 60 },
    { channels: 3, count: 30 },
    { channels: 4, count: 8 },
  ],
  samples: [],
  skipped: 1,
  corrupt: ["dog/broken.png"],
};

const io = (inputShape: number[], outputShape = [3], loss = "cross_entropy") => ({
  inputShape,
  inputDtype: "float32" as const,
  outputShape,
  loss,
});

describe("describeImageFit", () => {
  it("fits a picture Input with one logit per class, and says what is converted, resized and skipped", () => {
    const gray = describeImageFit(io([1, 28, 28]), profile);
    expect(gray).toMatchObject({ fits: true, classes: 3, features: 784 });
    const notes = gray.fits ? gray.notes : [];
    expect(notes).toContain("38 colour images are converted to grayscale (the model's Input has 1 channel).");
    expect(notes).toContain("Transparent pixels are flattened on white.");
    expect(notes).toContain(
      "48 images are resized (28–64 × 28–48) to the Input's 28×28 (stretch: the whole picture, its aspect ratio not kept).",
    );
    expect(notes).toContain("1 unreadable file is skipped.");
    const rgb = describeImageFit(io([3, 32, 32]), profile, "pad");
    expect(rgb.fits && rgb.notes).toContain(
      "60 grayscale images are converted to RGB (the model's Input has 3 channels).",
    );
    expect(rgb.fits && rgb.notes.join(" ")).toMatch(/to the Input's 32×32 \(pad: /);
  });

  it("says why not: an Input that is no picture, another number of classes, no classifier", () => {
    expect(describeImageFit(io([784]), profile)).toMatchObject({
      fits: false,
      reason: expect.stringMatching(/Input is \[784\]/),
    });
    expect(describeImageFit(io([2, 28, 28]), profile).fits).toBe(false);
    expect(describeImageFit(io([1, 28, 28], [10]), profile)).toEqual({
      fits: false,
      reason:
        "The dataset has 3 classes (“cat”, “dog”, “fox”) but the model's Output gives 10 logits: make the last Dense layer 3 units.",
    });
    expect(describeImageFit(io([1, 28, 28], [1], "mse"), profile)).toMatchObject({
      fits: false,
      reason: expect.stringMatching(/must be cross_entropy logits \[3\]/),
    });
    expect(describeImageFit(io([1, 28, 28]), { ...profile, classes: [] }).fits).toBe(false);
  });
});
