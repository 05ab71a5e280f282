"""Checks the image parts of a generated train.py on a prepared uint8 dataset.

    python verify_images.py PROJECT_DIR DATA_DIR

Prints one JSON object: {"errors": [...], "checked": [...]}. Checks that uint8 pixels reach
the model as (x / 255 - mean[c]) / std[c] in float32, and for each augmentation the program
has: the same seed gives the same batch, a horizontal flip gives each image or its mirror
(both seen), a padded crop gives each image shifted by at most the padding with zeros
brought in, colour jitter stays in [0, 1] and changes the pixels.
"""

import json
import sys
from pathlib import Path

import numpy as np
import torch

project, data = Path(sys.argv[1]), Path(sys.argv[2])
sys.path.insert(0, str(project))
import train  # noqa: E402

errors: list[str] = []
checked: list[str] = []
info = json.loads((data / "dataset.json").read_text())
rows = info["splits"]["train"]["rows"]
shape = info["x"]["shape"]
pixels_u8 = np.fromfile(data / "x_train.bin", dtype=np.uint8).reshape(rows, *shape)
batch = torch.from_numpy(pixels_u8[:32].copy())

# Normalisation, exactly the documented float32 steps.
args = train.parse_args(["--data-dir", str(data)])
pixels = train.pixel_statistics(args)
got = train.model_input(batch, pixels, None).numpy()
mean = np.array(info["image"]["mean"], dtype=np.float32).reshape(1, -1, 1, 1)
std = np.array(info["image"]["std"], dtype=np.float32).reshape(1, -1, 1, 1)
want = (batch.numpy().astype(np.float32) / np.float32(255) - mean) / std
if got.dtype != np.float32 or not np.allclose(got, want, atol=1e-6, rtol=0):
    errors.append(f"normalisation: max error {np.abs(got - want).max()}")
checked.append("normalisation")

if hasattr(train, "Augmenter"):
    scaled = batch.to(torch.float32) / 255
    augmenter = train.Augmenter()
    augmenter.reseed(7)
    first = augmenter(scaled.clone())
    augmenter.reseed(7)
    second = augmenter(scaled.clone())
    if not torch.equal(first, second):
        errors.append("the same seed gave different batches")
    if first.shape != scaled.shape:
        errors.append(f"shape changed: {list(first.shape)}")
    checked.append("seeded")
    names = {
        "flip": getattr(train, "HORIZONTAL_FLIP", False),
        "crop": getattr(train, "CROP_PADDING", 0),
        "rotation": getattr(train, "ROTATION_DEGREES", 0),
        "translate": getattr(train, "TRANSLATE", 0),
        "jitter": getattr(train, "COLOR_JITTER", 0),
    }
    on = {name for name, value in names.items() if value}
    if on == {"flip"}:
        same = [torch.equal(a, b) for a, b in zip(first, scaled)]
        mirrored = [torch.equal(a, b.flip(-1)) for a, b in zip(first, scaled)]
        if not all(s or m for s, m in zip(same, mirrored)):
            errors.append("flip: an image is neither itself nor its mirror")
        if not any(s and not m for s, m in zip(same, mirrored)) or not any(mirrored):
            errors.append("flip: expected both kept and mirrored images in 32")
        checked.append("flip")
    if on == {"crop"}:
        pad = train.CROP_PADDING
        padded = torch.nn.functional.pad(scaled, (pad, pad, pad, pad))
        height, width = scaled.shape[-2:]
        moved = 0
        for out, source in zip(first, padded):
            windows = [
                (top, left)
                for top in range(2 * pad + 1)
                for left in range(2 * pad + 1)
                if torch.equal(out, source[:, top : top + height, left : left + width])
            ]
            if not windows:
                errors.append("crop: an image is no window of its padded self")
                break
            moved += (pad, pad) not in windows
        if moved == 0:
            errors.append("crop: no image was moved")
        checked.append("crop")
    if "jitter" in on:
        if first.min() < 0 or first.max() > 1:
            errors.append("colour jitter left [0, 1]")
        checked.append("jitter range")
    if torch.equal(first, scaled):
        errors.append("augmentation changed nothing")

print(json.dumps({"errors": errors, "checked": checked}))
