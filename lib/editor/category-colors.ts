import type { LayerCategory } from "@/lib/ml";

/** A colour per palette category (hex, for canvases and SVG): the minimap, overview and previews. */
export const CATEGORY_FILL: Record<LayerCategory, string> = {
  "Input/Output": "#64748b",
  Core: "#6366f1",
  Convolution: "#0ea5e9",
  Pooling: "#06b6d4",
  Normalization: "#14b8a6",
  Recurrent: "#f59e0b",
  Attention: "#d946ef",
  Merge: "#f43f5e",
  Activation: "#84cc16",
};
