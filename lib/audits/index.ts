/** The audit workflow, pure: parse a calls log, group it into workloads, split, featurise, score, summarise. */
export * from "./candidates";
export * from "./features";
export * from "./metrics";
export * from "./parse-log";
export * from "./summary";
export * from "./types";
export * from "./workloads";
