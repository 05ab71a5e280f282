import type { LayerCategory } from "@/lib/ml";

/** A colour per palette category: the stripe on nodes and the dot in the palette. */
export const CATEGORY_COLOR: Record<LayerCategory, string> = {
  "Input/Output": "bg-slate-500",
  Core: "bg-indigo-500",
  Convolution: "bg-sky-500",
  Pooling: "bg-cyan-500",
  Normalization: "bg-teal-500",
  Recurrent: "bg-amber-500",
  Attention: "bg-fuchsia-500",
  Merge: "bg-rose-500",
  Activation: "bg-lime-500",
};
