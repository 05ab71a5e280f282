/**
 * The image parts of train.py (image models only): uint8 pixels read from a prepared dataset as a
 * memory map and turned into model inputs per batch (/255, then per-channel (x − mean) / std with
 * the statistics recorded in dataset.json, in float32, the order serving uses), and the training
 * augmentations, vectorised over the batch with plain torch (no torchvision) and a seeded generator.
 */
import type { Augmentation } from "../graph-types";
import { pyFloat } from "./format";
import type { ImageInput } from "./images";

/** Module constants and the Pixels / Augmenter classes, after the other definitions. */
export function pythonImageSupport(image: ImageInput, augmentation: Augmentation | null): string {
  const parts = [PIXELS];
  if (augmentation) parts.push(augmenter(image, augmentation));
  return parts.join("\n\n");
}

const PIXELS = `class Pixels:
    """uint8 images (C x H x W, 0..255) as the model takes them.

    x / 255, then (x - mean[c]) / std[c] per channel, in float32: the statistics of the
    training images that dataset.json records, the same steps serving applies.
    """

    def __init__(self, mean: list[float], std: list[float]) -> None:
        self.mean = torch.tensor(mean, dtype=torch.float32).reshape(1, -1, 1, 1)
        self.std = torch.tensor(std, dtype=torch.float32).reshape(1, -1, 1, 1)

    def scale(self, inputs: torch.Tensor) -> torch.Tensor:
        return inputs.to(torch.float32) / 255

    def normalize(self, inputs: torch.Tensor) -> torch.Tensor:
        mean, std = self.mean.to(inputs.device), self.std.to(inputs.device)
        return (inputs - mean) / std


def map_pixels(path: Path, rows: int) -> torch.Tensor:
    """A split's uint8 pixels, memory-mapped: batches are read as they are taken."""
    pixels = np.memmap(path, dtype=np.uint8, mode="c", shape=(rows, *INPUT_SHAPE))
    return torch.from_numpy(pixels)`;

function augmenter(image: ImageInput, a: Augmentation): string {
  const constants = ["# Augmentation of training batches, from the project's training configuration."];
  const steps: string[] = [];
  if (a.horizontal_flip) {
    constants.push("HORIZONTAL_FLIP = True");
    steps.push(`        # Mirror half of the images left to right.
        flip = (torch.rand(n, generator=self.generator) < 0.5).to(device)
        x = torch.where(flip.reshape(-1, 1, 1, 1), x.flip(-1), x)`);
  }
  if (a.crop_padding > 0) {
    constants.push(`CROP_PADDING = ${a.crop_padding}`);
    steps.push(`        # Pad with zeros, then cut a window of the original size at a random place.
        pad = CROP_PADDING
        padded = F.pad(x, (pad, pad, pad, pad))
        top = torch.randint(0, 2 * pad + 1, (n,), generator=self.generator).to(device)
        left = torch.randint(0, 2 * pad + 1, (n,), generator=self.generator).to(device)
        rows = top.reshape(-1, 1) + torch.arange(height, device=device)
        rows = rows.reshape(n, 1, height, 1)
        rows = rows.expand(n, channels, height, width + 2 * pad)
        cols = left.reshape(-1, 1) + torch.arange(width, device=device)
        cols = cols.reshape(n, 1, 1, width).expand(n, channels, height, width)
        x = padded.gather(2, rows).gather(3, cols)`);
  }
  const rotate = a.rotation_degrees > 0;
  const shift = a.translate > 0;
  if (rotate) constants.push(`ROTATION_DEGREES = ${pyFloat(a.rotation_degrees)}`);
  if (shift) constants.push(`TRANSLATE = ${pyFloat(a.translate)}`);
  if (rotate || shift) {
    const angle = rotate
      ? "        angle = self.uniform(n, ROTATION_DEGREES) * (math.pi / 180)"
      : "        angle = torch.zeros(n)";
    const offsets = shift
      ? [
          "        # Shifts as fractions of the size; affine_grid's coordinates span 2 per side.",
          "        shift_x = self.uniform(n, TRANSLATE) * 2",
          "        shift_y = self.uniform(n, TRANSLATE) * 2",
        ].join("\n")
      : "        shift_x = shift_y = torch.zeros(n)";
    steps.push(`        # Rotate about the centre and shift (bilinear, zeros outside the picture).
${angle}
${offsets}
        cos, sin = angle.cos(), angle.sin()
        aspect = height / width
        theta = torch.stack(
            [
                torch.stack([cos, -sin * aspect, shift_x], 1),
                torch.stack([sin / aspect, cos, shift_y], 1),
            ],
            1,
        ).to(device)
        grid = F.affine_grid(theta, [n, channels, height, width], align_corners=False)
        x = F.grid_sample(x, grid, padding_mode="zeros", align_corners=False)`);
  }
  if (a.color_jitter > 0) {
    constants.push(`COLOR_JITTER = ${pyFloat(a.color_jitter)}`);
    steps.push(`        # Brightness, contrast and saturation, each by a factor in [1 - j, 1 + j].
        weights = torch.tensor([0.299, 0.587, 0.114], device=device).reshape(1, 3, 1, 1)
        brightness = 1 + self.uniform(n, COLOR_JITTER).to(device).reshape(-1, 1, 1, 1)
        x = (x * brightness).clamp(0, 1)
        contrast = 1 + self.uniform(n, COLOR_JITTER).to(device).reshape(-1, 1, 1, 1)
        gray = (x * weights).sum(1, keepdim=True).mean((2, 3), keepdim=True)
        x = ((x - gray) * contrast + gray).clamp(0, 1)
        saturation = 1 + self.uniform(n, COLOR_JITTER).to(device).reshape(-1, 1, 1, 1)
        gray = (x * weights).sum(1, keepdim=True)
        x = ((x - gray) * saturation + gray).clamp(0, 1)`);
  }
  const uses = rotate || shift || a.color_jitter > 0;
  const uniform = uses
    ? `

    def uniform(self, n: int, bound: float) -> torch.Tensor:
        """n values drawn uniformly from [-bound, bound]."""
        return (torch.rand(n, generator=self.generator) * 2 - 1) * bound`
    : "";
  const sizes = a.crop_padding > 0 || rotate || shift;
  return `${constants.join("\n")}


class Augmenter:
    """Random changes to a batch of training images (N, C, H, W) with pixels in [0, 1].

    Vectorised over the batch; the random draws come from one generator, seeded per
    epoch (and process), so a resumed run augments like an uninterrupted one.
    The input is ${image.channels} x ${image.height} x ${image.width}.
    """

    def __init__(self) -> None:
        self.generator = torch.Generator()

    def reseed(self, seed: int) -> None:
        self.generator.manual_seed(seed)${uniform}

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        n, device = len(x), x.device
${sizes ? "        channels, height, width = x.shape[1:]\n" : ""}${steps.join("\n")}
        return x`;
}
