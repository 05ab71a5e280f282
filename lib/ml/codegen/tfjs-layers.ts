/**
 * torch-layers.mjs: PyTorch-compatible layers that TensorFlow.js does not have, emitted only when the
 * model uses them (each class appears only if needed).
 */

export type TorchLayerClass =
  | "ConstantPad"
  | "TorchELU"
  | "TorchEmbedding"
  | "TorchLSTM"
  | "TorchGRU"
  | "TorchMultiHeadAttention";

const CONSTANT_PAD = `/**
 * Pads both sides of the trailing (spatial) axes by \`padding[i]\` with zeros, or with -Infinity
 * ("min") before max pooling, where PyTorch's implicit padding never wins the max.
 */
export class ConstantPad extends tf.layers.Layer {
  static className = "ConstantPad";

  constructor(config) {
    super(config);
    this.padding = config.padding;
    this.fill = config.fill ?? "zeros";
  }

  /** [before, after] for every axis, batch included. */
  paddings(rank) {
    const leading = rank - this.padding.length;
    return Array.from({ length: rank }, (_, axis) =>
      axis < leading ? [0, 0] : [this.padding[axis - leading], this.padding[axis - leading]],
    );
  }

  computeOutputShape(inputShape) {
    const paddings = this.paddings(inputShape.length);
    return inputShape.map((size, axis) => (size === null ? null : size + 2 * paddings[axis][0]));
  }

  call(inputs) {
    const x = Array.isArray(inputs) ? inputs[0] : inputs;
    return tf.pad(x, this.paddings(x.rank), this.fill === "min" ? -Infinity : 0);
  }

  getConfig() {
    return { ...super.getConfig(), padding: this.padding, fill: this.fill };
  }
}
tf.serialization.registerClass(ConstantPad);`;

const ELU = `/** nn.ELU with any alpha (tf.layers.elu only supports alpha = 1). */
export class TorchELU extends tf.layers.Layer {
  static className = "TorchELU";

  constructor(config) {
    super(config);
    this.alpha = config.alpha;
  }

  call(inputs) {
    return tf.tidy(() => {
      const x = Array.isArray(inputs) ? inputs[0] : inputs;
      // exp of min(x, 0): the branch tf.where discards must not overflow (its gradient would be NaN).
      return tf.where(x.greater(0), x, tf.exp(tf.minimum(x, 0)).sub(1).mul(this.alpha));
    });
  }

  getConfig() {
    return { ...super.getConfig(), alpha: this.alpha };
  }
}
tf.serialization.registerClass(TorchELU);`;

const EMBEDDING = `/** Rows of \`table\` for integer \`ids\`; the gradient scatter-adds into the looked-up rows only. */
const lookupRows = tf.customGrad((ids, table, save) => {
  const flat = ids.reshape([-1]);
  save([flat]);
  return {
    value: table.gather(flat).reshape([...ids.shape, table.shape[1]]),
    gradFunc: (dy, [saved]) => [
      tf.zerosLike(ids),
      tf.scatterND(saved.reshape([-1, 1]), dy.reshape([-1, table.shape[1]]), table.shape),
    ],
  };
});

/**
 * nn.Embedding: a [numEmbeddings, embeddingDim] table drawn from N(0, 1) like PyTorch's. Unlike
 * tf.layers.embedding, whose gradient costs vocabulary x tokens x dim on the cpu backend (minutes per
 * batch for a 10,000-token vocabulary), its gradient only touches the rows that were looked up.
 */
export class TorchEmbedding extends tf.layers.Layer {
  static className = "TorchEmbedding";

  constructor(config) {
    super(config);
    this.numEmbeddings = config.numEmbeddings;
    this.embeddingDim = config.embeddingDim;
  }

  build() {
    const init = tf.initializers.randomNormal({ mean: 0, stddev: 1 });
    this.table = this.addWeight(
      "embeddings",
      [this.numEmbeddings, this.embeddingDim],
      "float32",
      init,
    );
    this.built = true;
  }

  computeOutputShape(inputShape) {
    return [...inputShape, this.embeddingDim];
  }

  call(inputs) {
    const ids = Array.isArray(inputs) ? inputs[0] : inputs;
    return lookupRows(ids.dtype === "int32" ? ids : ids.cast("int32"), this.table.read());
  }

  getConfig() {
    return {
      ...super.getConfig(),
      numEmbeddings: this.numEmbeddings,
      embeddingDim: this.embeddingDim,
    };
  }
}
tf.serialization.registerClass(TorchEmbedding);`;

const RECURRENT_BASE = `/**
 * nn.LSTM / nn.GRU with batch_first=True: PyTorch's gate order and its two biases (bias_ih and
 * bias_hh, which tf.layers.lstm / gru lack), stacked layers with dropout between them, and
 * bidirectional runs. With returnSequences false the output is output[:, -1, :], as in PyTorch.
 */
class TorchRecurrent extends tf.layers.Layer {
  constructor(config, gates) {
    super(config);
    this.gates = gates;
    this.hiddenSize = config.hiddenSize;
    this.numLayers = config.numLayers ?? 1;
    this.bidirectional = config.bidirectional ?? false;
    this.returnSequences = config.returnSequences ?? false;
    this.dropout = config.dropout ?? 0;
  }

  build(inputShape) {
    const directions = this.bidirectional ? 2 : 1;
    const width = this.gates * this.hiddenSize;
    // PyTorch draws every weight and bias from U(-1/sqrt(hidden), 1/sqrt(hidden)).
    const bound = 1 / Math.sqrt(this.hiddenSize);
    const init = tf.initializers.randomUniform({ minval: -bound, maxval: bound });
    this.cells = [];
    for (let layer = 0; layer < this.numLayers; layer++) {
      const inputSize =
        layer === 0 ? inputShape[inputShape.length - 1] : this.hiddenSize * directions;
      for (let direction = 0; direction < directions; direction++) {
        const suffix = \`l\${layer}\${direction === 1 ? "_reverse" : ""}\`;
        this.cells.push({
          layer,
          reverse: direction === 1,
          weightIh: this.addWeight(\`weight_ih_\${suffix}\`, [inputSize, width], "float32", init),
          weightHh: this.addWeight(
            \`weight_hh_\${suffix}\`,
            [this.hiddenSize, width],
            "float32",
            init,
          ),
          biasIh: this.addWeight(\`bias_ih_\${suffix}\`, [width], "float32", init),
          biasHh: this.addWeight(\`bias_hh_\${suffix}\`, [width], "float32", init),
        });
      }
    }
    this.built = true;
  }

  computeOutputShape(inputShape) {
    const features = this.hiddenSize * (this.bidirectional ? 2 : 1);
    return this.returnSequences
      ? [inputShape[0], inputShape[1], features]
      : [inputShape[0], features];
  }

  call(inputs, kwargs) {
    return tf.tidy(() => {
      let sequence = Array.isArray(inputs) ? inputs[0] : inputs;
      const [batch, steps] = sequence.shape;
      for (let layer = 0; layer < this.numLayers; layer++) {
        if (layer > 0 && this.dropout > 0 && kwargs?.training) {
          sequence = tf.dropout(sequence, this.dropout);
        }
        const outputs = this.cells
          .filter((c) => c.layer === layer)
          .map((c) => this.run(sequence, c));
        sequence = outputs.length === 1 ? outputs[0] : tf.concat(outputs, -1);
      }
      if (this.returnSequences) return sequence;
      return sequence.slice([0, steps - 1, 0], [batch, 1, -1]).reshape([batch, -1]);
    });
  }

  /** One direction of one layer over the whole sequence: [batch, steps, hidden]. */
  run(sequence, cell) {
    const [batch, steps, features] = sequence.shape;
    const projected = sequence
      .reshape([batch * steps, features])
      .matMul(cell.weightIh.read())
      .add(cell.biasIh.read())
      .reshape([batch, steps, -1]);
    const inputs = tf.unstack(projected, 1);
    let state = this.initialState(batch);
    const outputs = new Array(steps);
    for (let i = 0; i < steps; i++) {
      const t = cell.reverse ? steps - 1 - i : i;
      const recurrent = state.hidden.matMul(cell.weightHh.read()).add(cell.biasHh.read());
      state = this.step(inputs[t], recurrent, state);
      outputs[t] = state.hidden;
    }
    return tf.stack(outputs, 1);
  }

  getConfig() {
    return {
      ...super.getConfig(),
      hiddenSize: this.hiddenSize,
      numLayers: this.numLayers,
      bidirectional: this.bidirectional,
      returnSequences: this.returnSequences,
      dropout: this.dropout,
    };
  }
}`;

const LSTM = `/** nn.LSTM: gates i, f, g, o. */
export class TorchLSTM extends TorchRecurrent {
  static className = "TorchLSTM";

  constructor(config) {
    super(config, 4);
  }

  initialState(batch) {
    return { hidden: tf.zeros([batch, this.hiddenSize]), cell: tf.zeros([batch, this.hiddenSize]) };
  }

  step(input, recurrent, state) {
    const [i, f, g, o] = tf.split(input.add(recurrent), 4, -1);
    const cell = tf
      .sigmoid(f)
      .mul(state.cell)
      .add(tf.sigmoid(i).mul(tf.tanh(g)));
    return { hidden: tf.sigmoid(o).mul(tf.tanh(cell)), cell };
  }
}
tf.serialization.registerClass(TorchLSTM);`;

const GRU = `/** nn.GRU: gates r, z, n, the reset gate applied to the recurrent projection (PyTorch's form). */
export class TorchGRU extends TorchRecurrent {
  static className = "TorchGRU";

  constructor(config) {
    super(config, 3);
  }

  initialState(batch) {
    return { hidden: tf.zeros([batch, this.hiddenSize]) };
  }

  step(input, recurrent, state) {
    const [inputReset, inputUpdate, inputNew] = tf.split(input, 3, -1);
    const [hiddenReset, hiddenUpdate, hiddenNew] = tf.split(recurrent, 3, -1);
    const reset = tf.sigmoid(inputReset.add(hiddenReset));
    const update = tf.sigmoid(inputUpdate.add(hiddenUpdate));
    const candidate = tf.tanh(inputNew.add(reset.mul(hiddenNew)));
    return { hidden: tf.sub(1, update).mul(candidate).add(update.mul(state.hidden)) };
  }
}
tf.serialization.registerClass(TorchGRU);`;

const ATTENTION = `/** The list of 1 to 3 shapes of [query, key, value] (a single shape for self-attention). */
function attentionShapes(inputShape) {
  const shapes = Array.isArray(inputShape[0]) ? inputShape : [inputShape];
  const [query, key = query, value = key] = shapes;
  return [query, key, value];
}

/**
 * nn.MultiheadAttention(batch_first=True) applied to query, or [query, key], or [query, key, value]
 * (key defaults to query, value to key): input projections (key and value may have their own sizes),
 * scaled dot-product attention per head, an optional causal mask, dropout on the attention weights
 * while training, and the output projection.
 */
export class TorchMultiHeadAttention extends tf.layers.Layer {
  static className = "TorchMultiHeadAttention";

  constructor(config) {
    super(config);
    this.numHeads = config.numHeads;
    this.dropout = config.dropout ?? 0;
    this.causal = config.causal ?? false;
  }

  build(inputShape) {
    const [query, key, value] = attentionShapes(inputShape);
    const embed = query[2];
    // PyTorch: Xavier-uniform projection weights, zero biases.
    const glorot = tf.initializers.glorotUniform({});
    const zeros = tf.initializers.zeros();
    this.queryKernel = this.addWeight("query_kernel", [embed, embed], "float32", glorot);
    this.keyKernel = this.addWeight("key_kernel", [key[2], embed], "float32", glorot);
    this.valueKernel = this.addWeight("value_kernel", [value[2], embed], "float32", glorot);
    this.inputBias = this.addWeight("in_proj_bias", [3 * embed], "float32", zeros);
    this.outputKernel = this.addWeight("out_proj_kernel", [embed, embed], "float32", glorot);
    this.outputBias = this.addWeight("out_proj_bias", [embed], "float32", zeros);
    this.built = true;
  }

  computeOutputShape(inputShape) {
    return attentionShapes(inputShape)[0];
  }

  call(inputs, kwargs) {
    return tf.tidy(() => {
      const [query, key = query, value = key] = Array.isArray(inputs) ? inputs : [inputs];
      const [batch, queryLength, embed] = query.shape;
      const keyLength = key.shape[1];
      const depth = embed / this.numHeads;
      const [queryBias, keyBias, valueBias] = tf.split(this.inputBias.read(), 3);
      // [batch, length, features] -> [batch, heads, length, depth]
      const project = (x, kernel, bias) =>
        x
          .reshape([-1, x.shape[2]])
          .matMul(kernel.read())
          .add(bias)
          .reshape([batch, x.shape[1], this.numHeads, depth])
          .transpose([0, 2, 1, 3]);
      const q = project(query, this.queryKernel, queryBias);
      const k = project(key, this.keyKernel, keyBias);
      const v = project(value, this.valueKernel, valueBias);
      let scores = tf.matMul(q, k, false, true).div(Math.sqrt(depth));
      if (this.causal) {
        // Query i attends to keys 0..i only: -1e9 above the diagonal.
        const allowed = tf.linalg.bandPart(tf.ones([queryLength, keyLength]), -1, 0);
        scores = scores.add(allowed.sub(1).mul(1e9));
      }
      let weights = tf.softmax(scores, -1);
      if (this.dropout > 0 && kwargs?.training) weights = tf.dropout(weights, this.dropout);
      return tf
        .matMul(weights, v)
        .transpose([0, 2, 1, 3])
        .reshape([-1, embed])
        .matMul(this.outputKernel.read())
        .add(this.outputBias.read())
        .reshape([batch, queryLength, embed]);
    });
  }

  getConfig() {
    return {
      ...super.getConfig(),
      numHeads: this.numHeads,
      dropout: this.dropout,
      causal: this.causal,
    };
  }
}
tf.serialization.registerClass(TorchMultiHeadAttention);`;

export function generateTorchLayersMjs(used: ReadonlySet<TorchLayerClass>): string {
  const parts = [
    "// PyTorch-compatible layers for model.mjs (generated by Layerline): TensorFlow.js has no",
    "// equivalent with the same semantics and parameter count.",
    'import * as tf from "@tensorflow/tfjs";',
  ];
  if (used.has("ConstantPad")) parts.push("", CONSTANT_PAD);
  if (used.has("TorchELU")) parts.push("", ELU);
  if (used.has("TorchEmbedding")) parts.push("", EMBEDDING);
  if (used.has("TorchLSTM") || used.has("TorchGRU")) parts.push("", RECURRENT_BASE);
  if (used.has("TorchLSTM")) parts.push("", LSTM);
  if (used.has("TorchGRU")) parts.push("", GRU);
  if (used.has("TorchMultiHeadAttention")) parts.push("", ATTENTION);
  return `${parts.join("\n")}\n`;
}

/**
 * Every PyTorch-compatible layer class as the body of a function of `tf` (imports and exports
 * removed): how the server registers them with its own tf to load a generated TF.js model, in
 * process (artifact-reader.ts) and in the model probe's child process.
 */
export function torchLayersFunctionBody(): string {
  return generateTorchLayersMjs(
    new Set<TorchLayerClass>([
      "ConstantPad",
      "TorchELU",
      "TorchEmbedding",
      "TorchLSTM",
      "TorchGRU",
      "TorchMultiHeadAttention",
    ]),
  )
    .split("\n")
    .filter((line) => !line.startsWith("import "))
    .map((line) => line.replace(/^export /, ""))
    .join("\n");
}
