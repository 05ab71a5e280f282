/**
 * The image parts of train.mjs (image models only): uint8 pixels of a prepared dataset kept as
 * bytes and turned into model inputs per batch (/255, then per-channel (x − mean) / std with the
 * statistics recorded in dataset.json, the order serving uses), and the training augmentations
 * with tf.image ops per batch. The model is channels-first ([N, C, H, W], like PyTorch) while
 * tf.image works channels-last: the batch is transposed to [N, H, W, C] and back.
 */
import type { Augmentation } from "../graph-types";
import type { ImageInput } from "./images";

/** Lines of JavaScript after loadPrepared: modelInput() and, with augmentation, augment(). */
export function jsImageSupport(image: ImageInput, augmentation: Augmentation | null): string[] {
  const lines = [
    "/**",
    " * A batch as the model takes it: uint8 pixels scaled to [0, 1], augmented (training batches",
    " * only), then normalised per channel with the training images' mean and std.",
    " */",
    "export function modelInput(data, batch, rows, augmentation) {",
    "  let inputs;",
    "  if (data.pixels) {",
    "    const size = data.pixels.length / data.count;",
    "    const values = new Float32Array(batch.length * size);",
    "    batch.forEach((row, i) => {",
    "      values.set(data.pixels.subarray(row * size, (row + 1) * size), i * size);",
    "    });",
    "    inputs = tf.tensor(values, [batch.length, ...INPUT_SHAPE]).div(255);",
    "  } else {",
    "    inputs = data.x.gather(rows);",
    "  }",
    "  if (augmentation) inputs = augmentation(inputs);",
    "  return data.pixels ? inputs.sub(data.mean).div(data.std) : inputs;",
    "}",
  ];
  if (augmentation) lines.push("", ...augmenter(image, augmentation));
  return lines;
}

/** loadPrepared's branch for uint8 pixels (bytes kept as they are until a batch is taken). */
export const JS_PIXEL_SPLIT = [
  '    if (info.x.dtype === "uint8") {',
  '      if (!info.image) throw new UsageError("dataset.json: uint8 pixels without statistics");',
  "      const pixels = new Uint8Array(fs.readFileSync(path.join(dir, split.x)));",
  "      const y = toTargets(targets, split.rows);",
  "      const channels = [info.image.mean.length, 1, 1];",
  "      const mean = tf.tensor(info.image.mean, [1, ...channels]);",
  "      const std = tf.tensor(info.image.std, [1, ...channels]);",
  "      splits[name] = { pixels, count: split.rows, y, mean, std };",
  "      continue;",
  "    }",
];

function augmenter(image: ImageInput, a: Augmentation): string[] {
  const constants = ["// Augmentation of training batches, from the project's training configuration."];
  const body: string[] = [];
  if (a.horizontal_flip) {
    body.push(
      "  {",
      "    // Mirror half of the images left to right.",
      "    const flip = tf.tensor(",
      "      draw(n, () => (next() < 0.5 ? 1 : 0)),",
      "      [n, 1, 1, 1],",
      "    );",
      "    images = tf.image",
      "      .flipLeftRight(images)",
      "      .mul(flip)",
      "      .add(images.mul(tf.sub(1, flip)));",
      "  }",
    );
  }
  if (a.crop_padding > 0) {
    constants.push(`const CROP_PADDING = ${a.crop_padding};`);
    body.push(
      "  {",
      "    // Pad with zeros, then cut a window of the original size at a random place.",
      "    const pad = CROP_PADDING;",
      "    const boxes = [];",
      "    for (let i = 0; i < n; i++) {",
      "      const top = Math.floor(next() * (2 * pad + 1));",
      "      const left = Math.floor(next() * (2 * pad + 1));",
      "      const [h, w] = [height + 2 * pad - 1, width + 2 * pad - 1];",
      "      boxes.push([top / h, left / w, (top + height - 1) / h, (left + width - 1) / w]);",
      "    }",
      "    const padded = images.pad([",
      "      [0, 0],",
      "      [pad, pad],",
      "      [pad, pad],",
      "      [0, 0],",
      "    ]);",
      '    const index = tf.range(0, n, 1, "int32");',
      "    const size = [height, width];",
      '    images = tf.image.cropAndResize(padded, tf.tensor2d(boxes), index, size, "nearest");',
      "  }",
    );
  }
  const rotate = a.rotation_degrees > 0;
  const shift = a.translate > 0;
  if (rotate) constants.push(`const ROTATION_DEGREES = ${a.rotation_degrees};`);
  if (shift) constants.push(`const TRANSLATE = ${a.translate};`);
  if (rotate || shift) {
    body.push(
      "  {",
      "    // Rotate about the centre and shift (bilinear, zeros outside the picture): each row",
      "    // maps an output pixel (x, y) to the input pixel it is read from.",
      "    const [cx, cy] = [(width - 1) / 2, (height - 1) / 2];",
      "    const rows = [];",
      "    for (let i = 0; i < n; i++) {",
      rotate
        ? "      const angle = uniform(next, ROTATION_DEGREES) * (Math.PI / 180);"
        : "      const angle = 0;",
      shift ? "      const dx = uniform(next, TRANSLATE) * width;" : "      const dx = 0;",
      shift ? "      const dy = uniform(next, TRANSLATE) * height;" : "      const dy = 0;",
      "      const [cos, sin] = [Math.cos(angle), Math.sin(angle)];",
      "      const [x0, y0] = [cx + dx, cy + dy];",
      "      rows.push(cos, sin, cx - cos * x0 - sin * y0, -sin, cos, cy + sin * x0 - cos * y0, 0, 0);",
      "    }",
      "    const transforms = tf.tensor2d(rows, [n, 8]);",
      '    images = tf.image.transform(images, transforms, "bilinear", "constant", 0);',
      "  }",
    );
  }
  if (a.color_jitter > 0) {
    constants.push(`const COLOR_JITTER = ${a.color_jitter};`);
    body.push(
      "  {",
      "    // Brightness, contrast and saturation, each by a factor in [1 - j, 1 + j].",
      "    const factors = () =>",
      "      tf.tensor(",
      "        draw(n, () => 1 + uniform(next, COLOR_JITTER)),",
      "        [n, 1, 1, 1],",
      "      );",
      "    const weights = tf.tensor([0.299, 0.587, 0.114], [1, 1, 1, 3]);",
      "    images = images.mul(factors()).clipByValue(0, 1);",
      "    let gray = images.mul(weights).sum(-1, true).mean([1, 2], true);",
      "    images = images.sub(gray).mul(factors()).add(gray).clipByValue(0, 1);",
      "    gray = images.mul(weights).sum(-1, true);",
      "    images = images.sub(gray).mul(factors()).add(gray).clipByValue(0, 1);",
      "  }",
    );
  }
  const uses = rotate || shift || a.color_jitter > 0;
  const helpers = [
    ...(a.horizontal_flip || a.color_jitter > 0
      ? [
          "/** n values of `value()` as a Float32Array. */",
          "function draw(n, value) {",
          "  return Float32Array.from({ length: n }, value);",
          "}",
          "",
        ]
      : []),
    ...(uses
      ? [
          "/** A value drawn uniformly from [-bound, bound]. */",
          "function uniform(next, bound) {",
          "  return (next() * 2 - 1) * bound;",
          "}",
          "",
        ]
      : []),
  ];
  const sizes = a.crop_padding > 0 || rotate || shift;
  return [
    ...constants,
    "",
    ...helpers,
    "/**",
    " * Random changes to a batch of training images [N, C, H, W] with pixels in [0, 1], drawn",
    ` * from next() (seeded per epoch). The input is ${image.channels} × ${image.height} × ${image.width}.`,
    " */",
    "export function augment(x, next) {",
    sizes ? "  const [n, height, width] = [x.shape[0], x.shape[2], x.shape[3]];" : "  const n = x.shape[0];",
    "  // tf.image works channels-last.",
    "  let images = x.transpose([0, 2, 3, 1]);",
    ...body,
    "  return images.transpose([0, 3, 1, 2]);",
    "}",
  ];
}
