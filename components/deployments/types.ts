import type { Schemas } from "@/lib/api/client";

export type Deployment = Schemas["Deployment"];
export type DeploymentWithKey = Schemas["DeploymentWithKey"];
export type DeploymentRevision = Schemas["DeploymentRevision"];
export type DeploymentState = Schemas["DeploymentState"];
export type InferenceSchema = Schemas["InferenceSchema"];
export type DeploymentMetrics = Schemas["DeploymentMetrics"];
export type DeploymentLogs = Schemas["DeploymentLogs"];
export type DeploymentLogEntry = Schemas["DeploymentLogEntry"];
