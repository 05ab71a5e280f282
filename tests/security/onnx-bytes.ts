/**
 * A tiny ONNX writer for tests: the few protobuf messages a model needs (ModelProto, GraphProto,
 * NodeProto, TensorProto, ValueInfoProto), encoded by hand. Enough to build a real, valid model
 * (an identity-like `Add`) and hostile ones that onnxruntime accepts (tensors of enormous size).
 */

function varint(n: bigint | number): number[] {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    out.push(byte);
  } while (v !== 0n);
  return out;
}

const key = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, n: bigint | number) => [...key(field, 0), ...varint(n)];
const bytes = (field: number, b: Uint8Array | number[]) => [...key(field, 2), ...varint(b.length), ...b];
const str = (field: number, s: string) => bytes(field, [...new TextEncoder().encode(s)]);
const msg = (field: number, parts: number[][]) => bytes(field, parts.flat());

export const FLOAT = 1;
export const INT64 = 7;

/** A tensor-typed value (input or output) with fixed or symbolic (string) dims. */
export function valueInfo(field: number, name: string, elemType: number, dims: (number | string)[]) {
  const dim = dims.map((d) => msg(1, [typeof d === "number" ? int(1, d) : str(2, d)]));
  return msg(field, [str(1, name), msg(2, [msg(1, [int(1, elemType), msg(2, dim)])])]);
}

/** An int64 initializer (shapes, limits). */
export function int64Initializer(name: string, values: (bigint | number)[]) {
  const raw = new Uint8Array(values.length * 8);
  const view = new DataView(raw.buffer);
  values.forEach((v, i) => {
    view.setBigInt64(i * 8, BigInt(v), true);
  });
  return msg(5, [int(1, values.length), int(2, INT64), str(8, name), bytes(9, raw)]);
}

/** A float initializer. */
export function floatInitializer(name: string, dims: number[], values: number[]) {
  const raw = new Uint8Array(new Float32Array(values).buffer);
  return msg(5, [...dims.map((d) => int(1, d)), int(2, FLOAT), str(8, name), bytes(9, raw)]);
}

export function node(op: string, inputs: string[], outputs: string[]) {
  return msg(1, [...inputs.map((i) => str(1, i)), ...outputs.map((o) => str(2, o)), str(4, op)]);
}

/** A ModelProto (IR 8, opset 13) around a graph made of these parts. */
export function onnxModel(graphParts: number[][]): Uint8Array {
  return new Uint8Array([
    ...int(1, 8),
    ...str(2, "layerline-tests"),
    ...msg(7, [...graphParts, str(2, "g")]),
    ...msg(8, [str(1, ""), int(2, 13)]),
  ]);
}

/** A valid model: output = input + 1 (input [batch, 4] floats). */
export function goodOnnx(): Uint8Array {
  return onnxModel([
    node("Add", ["input", "one"], ["output"]),
    floatInitializer("one", [1], [1]),
    valueInfo(11, "input", FLOAT, ["batch", 4]),
    valueInfo(12, "output", FLOAT, ["batch", 4]),
  ]);
}

/**
 * A memory bomb that loads fine and explodes on the first run: `Expand` broadcasts the input
 * [batch, 4] to [rows, 4] (rows = 2^30 by default: 16 GiB of float32). The shape depends on the
 * input, so it cannot be folded away at load: the allocation happens on the first inference.
 */
export function expandBombOnnx(rows: bigint | number = 2n ** 30n): Uint8Array {
  return onnxModel([
    node("Expand", ["input", "shape"], ["output"]),
    int64Initializer("shape", [rows, 4]),
    valueInfo(11, "input", FLOAT, ["batch", 4]),
    valueInfo(12, "output", FLOAT, ["rows", 4]),
  ]);
}

/**
 * A memory bomb at load: `ConstantOfShape` of a constant shape [rows, 4] is folded into a constant
 * when the session is created (2^30 rows: 16 GiB); the output adds it to the input.
 */
export function constantBombOnnx(rows: bigint | number = 2n ** 30n): Uint8Array {
  return onnxModel([
    node("ConstantOfShape", ["shape"], ["big"]),
    node("Add", ["input", "big"], ["output"]),
    int64Initializer("shape", [rows, 4]),
    valueInfo(11, "input", FLOAT, ["batch", 4]),
    valueInfo(12, "output", FLOAT, ["rows", 4]),
  ]);
}

/** A TF.js layers model.json of one Dense 4 → 4 layer without bias, with the given weights manifest. */
export function tfjsModelJson(weightsManifest: unknown) {
  return JSON.stringify({
    format: "layers-model",
    generatedBy: "layerline-tests",
    convertedBy: null,
    modelTopology: {
      class_name: "Sequential",
      config: {
        name: "s",
        layers: [
          {
            class_name: "Dense",
            config: { name: "d", units: 4, batch_input_shape: [null, 4], dtype: "float32", use_bias: false },
          },
        ],
      },
      keras_version: "tfjs-layers 4.22.0",
      backend: "tensor_flow.js",
    },
    weightsManifest,
  });
}
