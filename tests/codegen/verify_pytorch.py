"""Verifies generated PyTorch projects against Layerline's own shape and parameter inference.

    /usr/bin/python3 verify_pytorch.py DIR EXPECTED [DIR EXPECTED ...]

EXPECTED is a JSON object (inline, or the path of a file holding it):
    {"id": ..., "input_shape": [...], "input_dtype": "float32" | "int64", "output_shape": [...],
     "loss": ..., "params": N, "modules": {name: {"params": N, "shape": [...] | null}}}

For each project: imports model.py, checks its constants, runs a forward pass on a random batch of 3
(eval mode) and a backward pass (train mode), compares the output shape, the total and per-module
parameter counts and the per-module output shapes, checks every parameter gets a gradient, then runs
train.py --synthetic 64 --epochs 1 --export-dir DIR in this process and checks it exits 0 with a
finite loss, checkpoints and a model.onnx that onnx-exported the model. Prints one JSON line per project; exits 1 if any project failed, 2 on bad usage.
"""

import contextlib
import io
import json
import math
import os
import runpy
import sys
import tempfile
import traceback

import torch


def load_expected(arg):
    if arg.lstrip().startswith("{"):
        return json.loads(arg)
    with open(arg, encoding="utf-8") as f:
        return json.load(f)


def import_model(directory):
    sys.modules.pop("model", None)
    sys.path.insert(0, directory)
    try:
        import model  # noqa: PLC0415 - imported per project on purpose

        return model
    finally:
        sys.path.remove(directory)


def check_model(module, expected, errors):
    input_shape = tuple(expected["input_shape"])
    output_shape = tuple(expected["output_shape"])
    int_input = expected["input_dtype"] == "int64"
    if tuple(module.INPUT_SHAPE) != input_shape:
        errors.append(f"INPUT_SHAPE {module.INPUT_SHAPE} != {input_shape}")
    if module.INPUT_DTYPE != (torch.int64 if int_input else torch.float32):
        errors.append(f"INPUT_DTYPE {module.INPUT_DTYPE} != {expected['input_dtype']}")
    if tuple(module.OUTPUT_SHAPE) != output_shape:
        errors.append(f"OUTPUT_SHAPE {module.OUTPUT_SHAPE} != {output_shape}")
    if module.LOSS != expected["loss"]:
        errors.append(f"LOSS {module.LOSS!r} != {expected['loss']!r}")

    torch.manual_seed(0)
    model = module.build_model()
    params = sum(p.numel() for p in model.parameters())
    if params != expected["params"]:
        errors.append(f"parameters: torch counts {params}, Layerline infers {expected['params']}")

    seen = {}
    hooks = []
    for name, spec in expected.get("modules", {}).items():
        sub = getattr(model, name, None)
        if not isinstance(sub, torch.nn.Module):
            errors.append(f"model has no submodule {name!r}")
            continue
        count = sum(p.numel() for p in sub.parameters())
        if count != spec["params"]:
            errors.append(f"{name}: torch counts {count} parameters, Layerline infers {spec['params']}")
        if spec.get("shape") is not None:
            hooks.append(sub.register_forward_hook(lambda m, i, o, name=name: seen.__setitem__(name, o)))

    if int_input:
        x = torch.randint(0, module.VOCAB_SIZE, (3, *input_shape))
    else:
        x = torch.randn(3, *input_shape)
    model.eval()
    with torch.no_grad():
        y = model(x)
    if tuple(y.shape) != (3, *output_shape):
        errors.append(f"output shape {tuple(y.shape)[1:]} (batch 3), Layerline infers {output_shape}")
    for name, spec in expected.get("modules", {}).items():
        if spec.get("shape") is None or name not in seen:
            continue
        got = tuple(seen[name].shape)
        if got != (3, *spec["shape"]):
            errors.append(f"{name}: output shape {got[1:]}, Layerline infers {tuple(spec['shape'])}")
    for hook in hooks:
        hook.remove()

    model.train()
    model(x).float().pow(2).mean().backward()
    unused = [name for name, p in model.named_parameters() if p.grad is None]
    if unused:
        errors.append(f"parameters without a gradient (unused?): {unused}")
    return {"output_shape": list(y.shape[1:]), "params": params}


def run_training(directory, errors):
    train_path = os.path.join(directory, "train.py")
    with tempfile.TemporaryDirectory() as checkpoints:
        export = os.path.join(checkpoints, "export")
        argv = ["--synthetic", "64", "--epochs", "1", "--checkpoint-dir", checkpoints]
        argv += ["--export-dir", export]
        # A dead upload endpoint: uploads must fail quietly without stopping training (no
        # retries: they would only wait).
        argv += ["--job", "job_test", "--token", "lut_test", "--api", "http://127.0.0.1:9"]
        argv += ["--upload-retries", "0"]
        saved_argv, saved_path = sys.argv, list(sys.path)
        sys.argv = [train_path, *argv]
        sys.path.insert(0, directory)
        out, err = io.StringIO(), io.StringIO()
        code = 0
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                runpy.run_path(train_path, run_name="__main__")
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
        finally:
            sys.argv, sys.path[:] = saved_argv, saved_path
        records = []
        for line in out.getvalue().splitlines():
            try:
                records.append(json.loads(line))
            except ValueError:
                errors.append(f"train.py printed a line that is not JSON: {line[:200]}")
        epochs = [r for r in records if r.get("event") == "epoch"]
        loss = epochs[-1]["loss"] if epochs else None
        if code != 0:
            errors.append(f"train.py exited with {code}: {err.getvalue()[-500:]}")
        if len(epochs) != 1:
            errors.append(f"train.py printed {len(epochs)} epoch lines, expected 1")
        elif not (isinstance(loss, float) and math.isfinite(loss)):
            errors.append(f"train.py loss is not finite: {loss}")
        for name in ("best.pt", "epoch-1.pt"):
            if not os.path.exists(os.path.join(checkpoints, name)):
                errors.append(f"train.py saved no checkpoint {name}")
        if not os.path.exists(os.path.join(export, "model.onnx")):
            errors.append("train.py exported no model.onnx")
        if "could not upload the metrics" not in err.getvalue():
            errors.append("train.py did not report the failed metrics upload")
        return {"exit_code": code, "loss": loss}


def main(args):
    if len(args) == 0 or len(args) % 2 != 0:
        print(__doc__, file=sys.stderr)
        return 2
    failed = 0
    for directory, expected_arg in zip(args[0::2], args[1::2]):
        expected = load_expected(expected_arg)
        errors = []
        result = {"id": expected.get("id"), "dir": directory}
        try:
            result.update(check_model(import_model(directory), expected, errors))
            result.update(run_training(directory, errors))
        except Exception:  # noqa: BLE001 - reported per project
            errors.append(traceback.format_exc(limit=4))
        result["ok"] = not errors
        result["errors"] = errors
        failed += 0 if result["ok"] else 1
        print(json.dumps(result), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
