import type { Schemas } from "@/lib/api/client";

export type RegisteredModel = Schemas["RegisteredModel"];
export type ModelVersion = Schemas["ModelVersion"];
export type ModelArtifact = Schemas["ModelArtifact"];
export type ModelAlias = Schemas["ModelAlias"];
export type Lineage = Schemas["ModelVersionLineage"];
export type LineageNode = Lineage["nodes"][number];
export type LineageKind = LineageNode["kind"];
