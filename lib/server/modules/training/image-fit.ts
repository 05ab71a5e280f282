/**
 * Does an image ZIP dataset fit a model, and what will be done to its pictures: from the version's
 * profile only (no picture read). Channels and size always fit (every picture is converted and
 * resized, and the answer says so); the Input must be a picture [C, H, W] with 1 or 3 channels and
 * the Output a classifier with one unit per class.
 */

import { imageInputOf } from "../../../ml/fit-model-io";
import { DEFAULT_IMAGE_RESIZE, type ImageResizeMode } from "../../../ml/graph-types";
import type { ImageProfile } from "../../db/schema/datasets";

/** What the verdict needs of a model (dataset-fit.ts's ModelIO). */
interface ModelIO {
  inputShape: number[];
  inputDtype: "float32" | "int64";
  outputShape: number[];
  loss: string;
}

const fmtShape = (shape: readonly number[]) => `[${shape.join(", ")}]`;

// The picture an Input reads: lib/ml/fit-model-io.ts (shared with the editor's "Fit to dataset").
export { type ImageInputShape, imageInputOf } from "../../../ml/fit-model-io";

const MODE_NOTE: Record<ImageResizeMode, string> = {
  stretch: "stretch: the whole picture, its aspect ratio not kept",
  crop: "crop: scaled to cover, the centre kept",
  pad: "pad: scaled to fit inside, black borders",
};

function classList(names: string[]): string {
  const shown = names.slice(0, 5).map((n) => `“${n}”`);
  return names.length > 5 ? `${shown.join(", ")}…` : shown.join(", ");
}

export type ImageFit =
  | { fits: true; classes: number; features: number; notes: string[] }
  | { fits: false; reason: string };

/** The verdict for an image dataset (its profile's `images`) and a model. */
export function describeImageFit(
  io: ModelIO,
  images: ImageProfile | undefined,
  resize: ImageResizeMode = DEFAULT_IMAGE_RESIZE,
): ImageFit {
  const input = imageInputOf(io);
  if (!input)
    return {
      fits: false,
      reason: `An image dataset needs a model whose Input is a picture [C, H, W] with 1 (grayscale) or 3 (RGB) channels (float32); this model's Input is ${fmtShape(io.inputShape)} ${io.inputDtype}.`,
    };
  if (!images || images.classes.length === 0)
    return { fits: false, reason: "The dataset has no readable images (see its profile)." };
  const names = images.classes.map((c) => c.name);
  if (io.loss !== "cross_entropy" || io.outputShape.length !== 1)
    return {
      fits: false,
      reason: `Image datasets are classified into their ${names.length} class folders: the model's Output must be cross_entropy logits [${names.length}]; this model's is ${io.loss} ${fmtShape(io.outputShape)}.`,
    };
  if (names.length < 2)
    return {
      fits: false,
      reason: `The dataset has one class folder (${classList(names)}); a classifier needs at least 2.`,
    };
  if (io.outputShape[0] !== names.length)
    return {
      fits: false,
      reason: `The dataset has ${names.length} classes (${classList(names)}) but the model's Output gives ${io.outputShape[0]} logits: make the last Dense layer ${names.length} units.`,
    };

  const notes: string[] = [];
  const want = input.channels === 1 ? "grayscale" : "RGB";
  const kinds = images.channels.filter((c) => (input.channels === 1 ? c.channels > 2 : c.channels < 3));
  if (kinds.length > 0) {
    const count = kinds.reduce((n, c) => n + c.count, 0);
    notes.push(
      input.channels === 1
        ? `${count} colour image${count === 1 ? " is" : "s are"} converted to grayscale (the model's Input has 1 channel).`
        : `${count} grayscale image${count === 1 ? " is" : "s are"} converted to RGB (the model's Input has 3 channels).`,
    );
  }
  if (images.channels.some((c) => c.channels === 2 || c.channels === 4))
    notes.push("Transparent pixels are flattened on white.");
  const other = images.sizes.filter((s) => s.width !== input.width || s.height !== input.height);
  if (other.length > 0) {
    const count = other.reduce((n, s) => n + s.count, 0);
    const range =
      images.width.min === images.width.max && images.height.min === images.height.max
        ? `${images.width.min}×${images.height.min}`
        : `${images.width.min}–${images.width.max} × ${images.height.min}–${images.height.max}`;
    notes.push(
      `${count} image${count === 1 ? " is" : "s are"} resized (${range}) to the Input's ${input.width}×${input.height} (${MODE_NOTE[resize]}).`,
    );
  }
  const corrupt = images.corrupt?.length ?? images.skipped;
  if (corrupt > 0) notes.push(`${corrupt} unreadable file${corrupt === 1 ? " is" : "s are"} skipped.`);
  notes.push(
    `Pictures are read as ${want} ${input.channels}×${input.height}×${input.width}, scaled to [0, 1] and normalised per channel with the training images' mean and std.`,
  );
  return { fits: true, classes: names.length, features: input.channels * input.height * input.width, notes };
}
