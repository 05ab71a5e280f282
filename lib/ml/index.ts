/**
 * Layerline architecture model: pure, isomorphic (browser editor + server).
 * Note: `autoLayout` is exported from "./auto-layout" separately so that
 * importing this barrel does not pull elkjs into bundles that do not need it.
 */

export * from "./dag-format";
export * from "./graph-builder";
export * from "./graph-diff";
export * from "./graph-types";
export * from "./infer-graph";
export * from "./layer-catalog";
export * from "./templates";
