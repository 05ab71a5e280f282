/**
 * What both training scripts need to know about image models: whether the Input is an image
 * (channels-first [C, H, W], 1 or 3 channels, float) and which augmentations the training
 * configuration turns on. Scripts of other models carry none of the image code.
 */
import type { Augmentation } from "../graph-types";
import type { CodegenPlan } from "./plan";

export interface ImageInput {
  channels: number;
  height: number;
  width: number;
}

/** The Input as an image, or null when the model does not take images. */
export function imageInput(plan: CodegenPlan): ImageInput | null {
  const shape = plan.input.shape;
  if (plan.input.params.dtype === "int64" || shape.length !== 3) return null;
  const [channels, height, width] = shape;
  return channels === 1 || channels === 3 ? { channels, height, width } : null;
}

/** The augmentations in effect (null: none), for an image Input only; colour jitter needs RGB. */
export function activeAugmentation(plan: CodegenPlan): Augmentation | null {
  const image = imageInput(plan);
  const a = plan.config.augmentation;
  if (!image || !a) return null;
  const active: Augmentation = {
    horizontal_flip: a.horizontal_flip,
    crop_padding: a.crop_padding,
    rotation_degrees: a.rotation_degrees,
    translate: a.translate,
    color_jitter: image.channels === 3 ? a.color_jitter : 0,
  };
  const any =
    active.horizontal_flip ||
    active.crop_padding > 0 ||
    active.rotation_degrees > 0 ||
    active.translate > 0 ||
    active.color_jitter > 0;
  return any ? active : null;
}
