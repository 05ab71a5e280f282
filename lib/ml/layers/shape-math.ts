/** Small shape helpers shared by the layer definitions. */
import type { Shape } from "../graph-types";

/** Number of elements of a shape (1 for a scalar []). */
export function numel(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

export function formatShape(shape: readonly number[]): string {
  return `[${shape.join(", ")}]`;
}

export function shapesEqual(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Output length of a convolution / pooling window along one axis, exactly as
 * PyTorch computes it: floor((L + 2p - d(k-1) - 1) / s + 1).
 */
export function windowOutput(
  length: number,
  kernel: number,
  stride: number,
  padding: number,
  dilation = 1,
): number {
  return Math.floor((length + 2 * padding - dilation * (kernel - 1) - 1) / stride + 1);
}

/** Error text when a layer expects one of the given ranks. */
export function rankError(layer: string, expected: string, got: Shape): string {
  return `${layer} expects ${expected} input but got ${formatShape(got)}`;
}
