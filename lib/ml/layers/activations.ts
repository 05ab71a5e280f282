import { z } from "zod";

export const ACTIVATIONS = [
  "relu",
  "gelu",
  "sigmoid",
  "tanh",
  "softmax",
  "leaky_relu",
  "silu",
  "elu",
] as const;
export type ActivationName = (typeof ACTIVATIONS)[number];

/** Optional activation fused into Dense/Conv layers ("none" = linear). */
export const fusedActivationSchema = z
  .enum(["none", ...ACTIVATIONS])
  .default("none")
  .describe("Activation applied after the layer (none = linear output)");
export type FusedActivation = z.output<typeof fusedActivationSchema>;

/** FLOPs per element of an activation (see the convention in layer-def.ts). */
export function activationFlopsPerElement(activation: FusedActivation): number {
  if (activation === "none") return 0;
  if (activation === "softmax") return 3;
  return 1;
}
