/**
 * Request and response schemas of the model registry (contract §4.10, issue 15): shared by the
 * routes (the OpenAPI document) and the registry services.
 */
import { z } from "@hono/zod-openapi";
import { MODEL_ARTIFACT_STATES, MODEL_VERSION_SOURCES, MODEL_VERSION_STATES } from "../../db/schema/registry";
import { pathParam } from "../../http/openapi";

const dateTime = () => z.string().openapi({ format: "date-time" });

/** Largest artifact file (the request body limit is 550 MB). */
export const MAX_ARTIFACT_BYTES = 500 * 1024 * 1024;
export const MAX_ARTIFACTS_PER_VERSION = 100;

export const modelIdParams = z.object({ model_id: pathParam("model_id") });
export const versionIdParams = z.object({ version_id: pathParam("version_id") });
export const artifactParams = z.object({
  version_id: pathParam("version_id"),
  artifact_id: pathParam("artifact_id"),
});

export const ALIAS_PATTERN = /^[a-z][a-z0-9_-]{0,62}$/;
/** `latest` means "the newest version" to most tools; a version-like name would read as a number. */
export const RESERVED_ALIASES = /^(latest|v\d+)$/;

export const aliasParams = z.object({
  model_id: pathParam("model_id"),
  alias: z
    .string()
    .regex(ALIAS_PATTERN, "An alias is 1–63 lowercase letters, digits, `_` or `-`, starting with a letter.")
    .refine((a) => !RESERVED_ALIASES.test(a), "`latest` and version-like names (`v1`) are reserved.")
    .openapi({ param: { name: "alias", in: "path" }, example: "champion" }),
});

export const taskContractParams = z.object({
  key: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "key", in: "path" }, example: "tabular-classification" }),
  version: z.coerce
    .number()
    .int()
    .min(1)
    .openapi({ param: { name: "version", in: "path", required: true }, example: 1 }),
});

const tagsSchema = z
  .array(z.string().trim().min(1).max(40))
  .max(20)
  .openapi({ description: "Up to 20 tags of 1–40 characters." });

export const createModelBodySchema = z
  .object({
    name: z.string().trim().min(1).max(100).openapi({ example: "iris-classifier" }),
    description: z.string().max(5000).optional(),
    task: z.string().trim().min(1).max(64).nullable().optional().openapi({
      description: "What the model does, e.g. a task contract key such as `tabular-classification`.",
    }),
    tags: tagsSchema.optional(),
  })
  .strict()
  .openapi("CreateRegisteredModel", {
    example: {
      name: "iris-classifier",
      description: "Classifies iris flowers from four measurements.",
      task: "tabular-classification",
      tags: ["tabular", "iris"],
    },
  });
export type CreateModelBody = z.infer<typeof createModelBodySchema>;

export const updateModelBodySchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().max(5000).optional(),
    task: z.string().trim().min(1).max(64).nullable().optional(),
    tags: tagsSchema.optional(),
  })
  .strict()
  .openapi("UpdateRegisteredModel");
export type UpdateModelBody = z.infer<typeof updateModelBodySchema>;

export const aliasSchema = z
  .object({
    alias: z.string(),
    version_id: z.string(),
    version: z.number().int().openapi({ description: "The version's number." }),
    updated_at: dateTime(),
    deployments_updated: z.array(z.string()).optional().openapi({
      description: "When the alias moved: the deployments that follow it and now serve its new version.",
    }),
  })
  .openapi("ModelAlias");
export type AliasView = z.infer<typeof aliasSchema>;

export const registeredModelSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    task: z.string().nullable(),
    tags: z.array(z.string()),
    latest_version: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The highest version number pushed, or null when there is none." }),
    aliases: z.array(aliasSchema),
    created_at: dateTime(),
    updated_at: dateTime(),
  })
  .openapi("RegisteredModel");
export type RegisteredModelView = z.infer<typeof registeredModelSchema>;

export const taskContractRefSchema = z
  .object({
    key: z.string().min(1).max(64).openapi({ example: "tabular-classification" }),
    version: z.number().int().min(1).openapi({ example: 1 }),
  })
  .strict()
  .openapi("TaskContractRef");

export const pushVersionBodySchema = z
  .object({
    job_id: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({
        description:
          "A succeeded training job or fine-tuning run: its model files and manifest.json become the " +
          "version's artifacts, complete at once. Leave out for a bare version whose artifacts you upload.",
      }),
    description: z.string().max(5000).optional(),
    task_contract: taskContractRefSchema.optional().openapi({
      description: "A task contract the version must conform to; checked at finalize (its manifest.json).",
    }),
  })
  .strict()
  .openapi("PushModelVersion", {
    example: { job_id: "job_7kQ2mP", description: "Trained 20 epochs on builtin-iris." },
  });
export type PushVersionBody = z.infer<typeof pushVersionBodySchema>;

export const modelVersionSchema = z
  .object({
    id: z.string(),
    model_id: z.string(),
    version: z.number().int().openapi({ description: "1, 2, 3… per model." }),
    state: z.enum(MODEL_VERSION_STATES).openapi({
      description: "`pending` while artifacts are uploaded; `ready` once finalized (then immutable).",
    }),
    source: z.enum(MODEL_VERSION_SOURCES).openapi({
      description: "`job` (a training job), `run` (a fine-tuning run) or `bare` (uploaded artifacts).",
    }),
    job_id: z.string().nullable(),
    task_contract: taskContractRefSchema.nullable(),
    description: z.string(),
    metrics: z.record(z.string(), z.number()),
    artifact_format: z.string().nullable().openapi({ description: "`onnx` or `tfjs` when known." }),
    artifact_manifest: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "The version's manifest.json, when it has one." }),
    aliases: z.array(z.string()),
    created_at: dateTime(),
    updated_at: dateTime(),
    finalized_at: dateTime().nullable(),
  })
  .openapi("ModelVersion");
export type ModelVersionView = z.infer<typeof modelVersionSchema>;

export const artifactNameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/,
    "A file name of 1–128 letters, digits, `.`, `_` or `-`, starting with a letter or digit.",
  )
  .refine((n) => !n.includes(".."), "A file name may not contain `..`.")
  .openapi({ example: "model.onnx" });

export const initiateArtifactBodySchema = z
  .object({
    name: artifactNameSchema,
    size_bytes: z.number().int().min(0).max(MAX_ARTIFACT_BYTES),
    sha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, "A SHA-256 digest in hex (64 characters).")
      .transform((s) => s.toLowerCase()),
    content_type: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+$/, "A media type such as application/octet-stream.")
      .max(127)
      .default("application/octet-stream"),
    direct_upload: z
      .boolean()
      .optional()
      .openapi({
        description:
          "Ask for a URL of the object store itself, so that the bytes do not pass through this service. " +
          "Honoured when the service stores files in an S3 bucket with direct uploads on (`upload.direct` " +
          "says whether it was): send exactly `size_bytes` bytes (the length is signed) with every header of " +
          "`upload.headers` (they carry the SHA-256; the store may refuse a body that does not match it), " +
          "then call `…/complete`, which checks the stored bytes. Default false: the URL is this service's.",
      }),
  })
  .strict()
  .openapi("InitiateModelArtifact", {
    example: {
      name: "model.onnx",
      size_bytes: 2048,
      sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      content_type: "application/octet-stream",
    },
  });
export type InitiateArtifactBody = z.infer<typeof initiateArtifactBodySchema>;

export const initiateArtifactResponseSchema = z
  .object({
    artifact_id: z.string(),
    upload: z.object({
      url: z.string().openapi({ description: "Send the file's bytes here (signed; no other credential)." }),
      method: z.literal("PUT"),
      headers: z.record(z.string(), z.string()).openapi({ description: "Headers to send with the bytes." }),
      direct: z.boolean().openapi({
        description:
          "True when `url` is a presigned URL of the object store (asked with `direct_upload`): send no " +
          "other credential there; its errors are the store's (XML), not problem details.",
      }),
    }),
    expires_at: dateTime().openapi({ description: "When the upload URL stops working." }),
  })
  .openapi("ModelArtifactUpload");
export type InitiateArtifactResponse = z.infer<typeof initiateArtifactResponseSchema>;

export const uploadQuerySchema = z.object({
  expires: z.string().max(20).optional().openapi({ description: "Expiry (Unix seconds), from initiate." }),
  sig: z.string().max(100).optional().openapi({ description: "Signature, from initiate." }),
});

export const modelArtifactSchema = z
  .object({
    id: z.string(),
    version_id: z.string(),
    name: z.string(),
    size_bytes: z.number().int(),
    sha256: z.string(),
    content_type: z.string(),
    state: z.enum(MODEL_ARTIFACT_STATES),
    created_at: dateTime(),
    completed_at: dateTime().nullable(),
  })
  .openapi("ModelArtifact");
export type ModelArtifactView = z.infer<typeof modelArtifactSchema>;

export const uploadReceiptSchema = z
  .object({
    artifact_id: z.string(),
    received_bytes: z.number().int(),
    sha256: z.string().openapi({ description: "SHA-256 of the bytes received." }),
  })
  .openapi("ModelArtifactUploadReceipt");

export const setAliasBodySchema = z
  .object({ version_id: z.string().min(1).max(64) })
  .strict()
  .openapi("SetModelAlias", { example: { version_id: "mv_3Lr8Ws" } });

export const LINEAGE_NODE_KINDS = [
  "dataset",
  "dataset_version",
  "project",
  "architecture_version",
  "job",
  "run",
  "base_model",
  "checkpoint",
  "model_version",
  "deployment",
  "deployment_revision",
] as const;
export type LineageNodeKind = (typeof LINEAGE_NODE_KINDS)[number];

export const lineageSchema = z
  .object({
    nodes: z.array(
      z.object({
        id: z.string().openapi({ description: "Unique in the graph: `<kind>:<resource id>`." }),
        kind: z.enum(LINEAGE_NODE_KINDS),
        label: z.string(),
        href: z.string().nullable().openapi({ description: "The studio page of the node, when it has one." }),
      }),
    ),
    edges: z.array(z.object({ from: z.string(), to: z.string(), label: z.string().optional() })),
  })
  .openapi("ModelVersionLineage");
export type LineageView = z.infer<typeof lineageSchema>;

export const taskContractSchema = z
  .object({
    key: z.string(),
    version: z.number().int(),
    description: z.string(),
    input_schema: z.record(z.string(), z.unknown()).openapi({ description: "JSON Schema of one instance." }),
    output_schema: z.record(z.string(), z.unknown()).openapi({ description: "JSON Schema of one output." }),
  })
  .openapi("TaskContract");
