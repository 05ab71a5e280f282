/** The database schema: one module per area, re-exported here for drizzle-kit and the db client. */
export * from "./schema/accounts";
export * from "./schema/audits";
export * from "./schema/datasets";
export * from "./schema/deployments";
export * from "./schema/evaluations";
export * from "./schema/hub";
export * from "./schema/jobs";
export * from "./schema/model-probes";
export * from "./schema/projects";
export * from "./schema/rate-limits";
export * from "./schema/registry";
export * from "./schema/training";
