/**
 * Training recipes (GET /training/recipes): named presets of a task, an architecture the editor can
 * open, a training configuration and the dataset they were tuned on. Pure: the server lists them
 * and checks `recipe_id`; `graphTask` says which task a project's graph is built for.
 */
import { sequential } from "./graph-builder";
import type { ArchitectureGraph, TrainingConfig } from "./graph-types";
import { DEFAULT_TRAINING_CONFIG } from "./graph-types";
import { getTemplate } from "./templates";

export type RecipeTask = "classification" | "regression" | "image_classification" | "language_modeling";

export interface Recipe {
  id: string;
  name: string;
  description: string;
  task: RecipeTask;
  graph: ArchitectureGraph;
  config: TrainingConfig;
  /** The built-in dataset the configuration was tuned on; null: made for the user's own images. */
  dataset_id: string | null;
  /** A base model of the catalog (data/catalog) made for the same task and data, or null. */
  base_model_id: string | null;
}

const cfg = (overrides: Partial<TrainingConfig>): TrainingConfig => ({
  ...DEFAULT_TRAINING_CONFIG,
  ...overrides,
});

export const RECIPES: readonly Recipe[] = [
  {
    id: "tabular-mlp-classifier",
    name: "Tabular classifier (MLP)",
    description:
      "One hidden layer of 16 ReLU units on numeric columns; tuned on Iris (≥ 93% validation accuracy).",
    task: "classification",
    graph: sequential({ shape: [4] }, [
      ["Dense", { units: 16, activation: "relu" }],
      ["Dense", { units: 3 }],
    ]).graph,
    config: cfg({ epochs: 60, batch_size: 16, learning_rate: 0.01, optimizer: "adam" }),
    dataset_id: "builtin-iris",
    base_model_id: null,
  },
  {
    id: "tabular-mlp-regression",
    name: "Tabular regression (MLP)",
    description:
      "Two hidden layers (64, 32) and one output trained with mean squared error; made for Diabetes.",
    task: "regression",
    graph: sequential(
      { shape: [10] },
      [
        ["Dense", { units: 64, activation: "relu" }],
        ["Dense", { units: 32, activation: "relu" }],
        ["Dense", { units: 1 }],
      ],
      { loss: "mse" },
    ).graph,
    config: cfg({ epochs: 100, batch_size: 32, learning_rate: 0.003, optimizer: "adam" }),
    dataset_id: "builtin-diabetes",
    base_model_id: null,
  },
  {
    id: "digits-cnn",
    name: "Small images (8×8 CNN)",
    description:
      "64 pixels reshaped to 1×8×8, two convolution blocks and a dense head; ≥ 97% test accuracy on Digits in 15 epochs.",
    task: "image_classification",
    graph: sequential({ shape: [64] }, [
      ["Reshape", { shape: [1, 8, 8] }],
      ["Conv2D", { out_channels: 16, kernel_size: 3, padding: 1, activation: "relu" }],
      ["MaxPool2D", { kernel_size: 2 }],
      ["Conv2D", { out_channels: 32, kernel_size: 3, padding: 1, activation: "relu" }],
      ["MaxPool2D", { kernel_size: 2 }],
      ["Flatten"],
      ["Dense", { units: 64, activation: "relu" }],
      ["Dense", { units: 10 }],
    ]).graph,
    config: cfg({ epochs: 15, batch_size: 32, learning_rate: 0.003, optimizer: "adam" }),
    dataset_id: "builtin-digits",
    base_model_id: "digits-cnn-0-4",
  },
  {
    id: "images-lenet",
    name: "Grayscale pictures (LeNet, 28×28)",
    description:
      "The LeNet-5 template for 28×28 grayscale pictures in 10 classes (digits, letters, icons) from an image ZIP. " +
      "Defaults: 10 epochs, batch 64, Adam at 0.001, constant learning rate; augmentation: random crop after " +
      "2 pixels of padding and rotations up to ±10° (no flip: digits and letters are not mirror images).",
    task: "image_classification",
    graph: getTemplate("cnn-image").graph,
    config: cfg({
      epochs: 10,
      batch_size: 64,
      learning_rate: 0.001,
      optimizer: "adam",
      augmentation: {
        horizontal_flip: false,
        crop_padding: 2,
        rotation_degrees: 10,
        translate: 0,
        color_jitter: 0,
      },
    }),
    dataset_id: null,
    base_model_id: null,
  },
  {
    id: "images-vgg",
    name: "Colour pictures (VGG-style, 32×32)",
    description:
      "The VGG-style template (two blocks of 3×3 convolutions with batch norm) for 32×32 RGB pictures in 10 " +
      "classes from an image ZIP. Defaults: 20 epochs, batch 64, AdamW at 0.001 with weight decay 0.0005, " +
      "constant learning rate; augmentation: horizontal flip and random crop after 4 pixels of padding.",
    task: "image_classification",
    graph: getTemplate("cnn-vgg").graph,
    config: cfg(getTemplate("cnn-vgg").training),
    dataset_id: null,
    base_model_id: null,
  },
  {
    id: "images-resnet",
    name: "Colour pictures (small ResNet, 32×32)",
    description:
      "The small ResNet template (a stem and three residual blocks of 16, 32 and 64 channels) for 32×32 RGB " +
      "pictures in 10 classes from an image ZIP. Defaults: 20 epochs, batch 64, AdamW at 0.001 with weight " +
      "decay 0.0005, constant learning rate; augmentation: horizontal flip and random crop after 4 pixels of padding.",
    task: "image_classification",
    graph: getTemplate("cnn-resnet").graph,
    config: cfg(getTemplate("cnn-resnet").training),
    dataset_id: null,
    base_model_id: null,
  },
  {
    id: "char-lstm-lm",
    name: "Character language model (LSTM)",
    description:
      "16 characters of context → embedding → LSTM(32) → the next character; made for the Declaration of Independence.",
    task: "language_modeling",
    graph: sequential({ shape: [16], dtype: "int64" }, [
      ["Embedding", { num_embeddings: 96, embedding_dim: 16 }],
      ["LSTM", { hidden_size: 32, num_layers: 1, return_sequences: false }],
      ["Dense", { units: 96 }],
    ]).graph,
    config: cfg({ epochs: 10, batch_size: 64, learning_rate: 0.01, optimizer: "adam" }),
    dataset_id: "builtin-declaration",
    base_model_id: "char-lstm-declaration",
  },
];

export function findRecipe(id: string): Recipe | undefined {
  return RECIPES.find((r) => r.id === id);
}

/**
 * The task a graph is built for, from its Output's loss and its input's element type: token ids in →
 * language modeling; mean squared error → regression; else classification (image classification
 * when the input, or a Reshape right after it, has image dimensions).
 */
export function graphTask(graph: ArchitectureGraph): RecipeTask | null {
  const output = graph.nodes.find((n) => n.type === "Output");
  const input = graph.nodes.find((n) => n.type === "Input");
  if (!output || !input) return null;
  if (input.params.dtype === "int64") return "language_modeling";
  if (output.params.loss === "mse") return "regression";
  const shape = input.params.shape;
  const reshape = graph.nodes.find(
    (n) => n.type === "Reshape" && graph.edges.some((e) => e.source === input.id && e.target === n.id),
  );
  const dims = Array.isArray(reshape?.params.shape) ? reshape.params.shape : shape;
  return Array.isArray(dims) && dims.length === 3 ? "image_classification" : "classification";
}

/** Whether a recipe's configuration suits a project whose graph is for `projectTask`. */
export function recipeFits(recipe: Pick<Recipe, "task">, projectTask: RecipeTask | null): boolean {
  if (projectTask === null) return false;
  if (recipe.task === projectTask) return true;
  // An image classifier is a classifier: the two configurations are interchangeable.
  const classifiers: RecipeTask[] = ["classification", "image_classification"];
  return classifiers.includes(recipe.task) && classifiers.includes(projectTask);
}
