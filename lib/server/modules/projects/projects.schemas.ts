/**
 * Request and response schemas of the projects area (projects, versions, share links, public
 * projects, project files), shared by the routes (the OpenAPI document) and the services.
 *
 * One piece by design (past ~400 lines): every schema of the area's routes lives in one file, the
 * area's half of the OpenAPI document (../shared/STYLE.md, "Server modules").
 */
import { z } from "@hono/zod-openapi";
import { DAG_FORMAT } from "../../../ml/dag-format";
import { MODEL_FAMILIES } from "../../../ml/dataset-models";
import {
  architectureGraphSchema,
  augmentationSchema,
  graphEdgeSchema,
  IMAGE_RESIZE_MODES,
  layerNodeSchema,
  OPTIMIZERS,
  trainingConfigSchema,
} from "../../../ml/graph-types";
import { TEMPLATE_IDS } from "../../../ml/templates";
import { pathParam } from "../../http/openapi";
import { pageQuerySchema } from "../../http/paging";

/** Shared request/response schemas of the project, version and share routes. */

import { PROJECT_NAME_MAX } from "./projects.limits";

const MAX_NODES = 5000;
const MAX_EDGES = 20000;

const dateTime = () => z.string().openapi({ format: "date-time" });

export const layerNodeApiSchema = layerNodeSchema.openapi("LayerNode");
export const graphEdgeApiSchema = graphEdgeSchema.openapi("GraphEdge");

/** The diagram, checked structurally (semantic problems are reported by `analysis`, not refused). */
export const graphApiSchema = architectureGraphSchema
  .extend({
    nodes: z.array(layerNodeApiSchema).max(MAX_NODES),
    edges: z.array(graphEdgeApiSchema).max(MAX_EDGES),
  })
  .openapi("ArchitectureGraph", {
    description: "Architecture diagram: layer nodes and the edges between them",
  });

/** Training configuration as sent by clients: omitted fields take their defaults; unknown fields are refused. */
export const trainingConfigInputSchema = trainingConfigSchema.strict().openapi("TrainingConfigInput");

const trainingShape = trainingConfigSchema.shape;
type TrainingShape = typeof trainingShape;
/** The same fields without their defaults: every field is present in a response (optional ones when set). */
const trainingOutputShape = Object.fromEntries(
  Object.entries(trainingShape).map(([field, schema]) => {
    if (schema.def.type === "optional") return [field, schema];
    const inner = schema.unwrap();
    return [field, schema.description ? inner.describe(schema.description) : inner];
  }),
) as {
  [K in keyof TrainingShape]: TrainingShape[K] extends z.ZodOptional
    ? TrainingShape[K]
    : ReturnType<TrainingShape[K]["unwrap"]>;
};
/** Training configuration as returned (every field present). */
export const trainingConfigApiSchema = z.object(trainingOutputShape).openapi("TrainingConfig");

/** The configuration a training job ran with (jobs, catalog entries and fine-tune runs record it). */
/** Image models' training augmentation (a field of the training configuration). */
export const augmentationApiSchema = augmentationSchema.openapi("TrainingAugmentation", {
  description:
    "Random changes to the training images, drawn per batch from the job's seed and applied to the training " +
    "split only (never to validation, test or serving), on pixels scaled to [0, 1] before the per-channel " +
    "normalisation. Every field is off by default; color_jitter applies to RGB inputs only.",
  example: {
    horizontal_flip: true,
    crop_padding: 4,
    rotation_degrees: 10,
    translate: 0.1,
    color_jitter: 0.2,
  },
});

/** How pictures of an image dataset are brought to the Input's height × width. */
export const imageResizeApiSchema = z.enum(IMAGE_RESIZE_MODES).openapi("ImageResizeMode", {
  description:
    "Image datasets: stretch (the default: the whole picture to exactly H×W, aspect ratio not kept), crop " +
    "(scaled to cover H×W, the centre cut out) or pad (scaled to fit inside H×W, black borders).",
});

export const jobConfigSchema = z
  .object({
    epochs: z.number().int(),
    batch_size: z.number().int(),
    learning_rate: z.number(),
    optimizer: z.enum(OPTIMIZERS),
    weight_decay: z.number(),
    seed: z.number().int(),
    validation_split: z.number(),
    augmentation: augmentationApiSchema.optional(),
    resize: imageResizeApiSchema.optional(),
  })
  .openapi("TrainingJobConfig");

export const analysisSummarySchema = z
  .object({
    ok: z.boolean().openapi({ description: "True when the graph has no error-severity issue" }),
    total_params: z.number().int().openapi({ description: "Trainable parameters" }),
    total_flops: z.number().openapi({ description: "Forward FLOPs per sample" }),
    issue_count: z.number().int(),
    error_count: z.number().int(),
    warning_count: z.number().int(),
  })
  .openapi("GraphAnalysisSummary");

export const projectVisibilitySchema = z.enum(["private", "public"]).openapi("ProjectVisibility", {
  description:
    "`private` (default): only its owner sees it. `public`: listed on the owner's profile, readable by anyone " +
    "and copied into their studio with import.",
});

export const projectSummarySchema = z
  .object({
    id: z.string().openapi({ example: "prj_3kTq9xV2mLw8Rb1cZp0a" }),
    name: z.string(),
    description: z.string(),
    node_count: z.number().int(),
    current_version_id: z
      .string()
      .nullable()
      .openapi({ description: "The version most recently saved or restored (null when none)" }),
    thumbnail_url: z.string().nullable(),
    visibility: projectVisibilitySchema,
    created_at: dateTime(),
    updated_at: dateTime(),
  })
  .openapi("ProjectSummary");

export const projectSchema = projectSummarySchema
  .extend({
    graph: graphApiSchema,
    training_config: trainingConfigApiSchema,
    analysis: analysisSummarySchema,
  })
  .openapi("Project");

export const projectNameSchema = z.string().trim().min(1).max(PROJECT_NAME_MAX);
const projectName = projectNameSchema;
const description = z.string().max(2000);

export const createProjectBodySchema = z
  .object({
    name: projectName.optional().openapi({
      example: "MNIST classifier",
      description: "Required, except with dataset_id (default: the dataset's name and the family)",
    }),
    description: description.optional(),
    graph: graphApiSchema.optional(),
    training_config: trainingConfigInputSchema.optional(),
    template: z
      .enum(TEMPLATE_IDS)
      .optional()
      .openapi({ description: "Start from a template (its graph, configuration and description)" }),
    dataset_id: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({
        description:
          "Start from a dataset you can read (yours or a built-in): a model of `family` sized to it (input " +
          "features or picture shape, classes or a regression head, vocabulary) with the family's training " +
          "defaults; training_config fields given override them. It fits the dataset as it is (its roles).",
      }),
    family: z.enum(MODEL_FAMILIES).optional().openapi({
      description:
        "With dataset_id: mlp (tables), cnn or resnet (image ZIPs), lstm (text); default the data's first",
    }),
  })
  .refine((b) => !(b.template && b.graph), {
    message: "Give either a template or a graph, not both",
    path: ["template"],
  })
  .refine((b) => !(b.dataset_id && (b.template || b.graph)), {
    message: "A project from a dataset takes neither a template nor a graph",
    path: ["dataset_id"],
  })
  .refine((b) => b.family === undefined || b.dataset_id !== undefined, {
    message: "family needs a dataset_id",
    path: ["family"],
  })
  .refine((b) => b.name !== undefined || b.dataset_id !== undefined, {
    message: "Required",
    path: ["name"],
  })
  .openapi("CreateProjectRequest", {
    description:
      "A project starts from a graph, from a template, from a dataset (a model sized to it), or empty; " +
      "these exclude each other. A name is required except from a dataset.",
    oneOf: [
      {
        title: "From a graph",
        required: ["name", "graph"],
        not: { anyOf: [{ required: ["template"] }, { required: ["dataset_id"] }] },
      },
      {
        title: "From a template",
        required: ["name", "template"],
        not: { anyOf: [{ required: ["graph"] }, { required: ["dataset_id"] }] },
      },
      {
        title: "From a dataset",
        required: ["dataset_id"],
        not: { anyOf: [{ required: ["graph"] }, { required: ["template"] }] },
      },
      {
        title: "Empty",
        required: ["name"],
        not: { anyOf: [{ required: ["graph"] }, { required: ["template"] }, { required: ["dataset_id"] }] },
      },
    ],
    example: { name: "Iris classifier", template: "mlp-classifier" },
  });

export const updateProjectBodySchema = z
  .object({
    name: projectName.optional(),
    description: description.optional(),
    graph: graphApiSchema.optional(),
    training_config: trainingConfigInputSchema
      .optional()
      .openapi({ description: "Replaces the configuration; omitted fields take their defaults" }),
    visibility: projectVisibilitySchema.optional(),
  })
  .openapi("UpdateProjectRequest", {
    example: { name: "Iris classifier v2", description: "Two hidden layers." },
  });

export const listProjectsQuerySchema = pageQuerySchema.extend({
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .openapi({ description: "Search in project names (case-insensitive)" }),
  sort: z.enum(["updated_at", "created_at", "name"]).default("updated_at"),
  order: z
    .enum(["asc", "desc"])
    .optional()
    .openapi({ description: "Default: `asc` when sorting by name, `desc` otherwise" }),
});

export const duplicateBodySchema = z
  .object({ name: projectName.optional().openapi({ description: 'Default: "<name> (copy)"' }) })
  .openapi("DuplicateProjectRequest");

export const bulkDeleteBodySchema = z
  .object({ ids: z.array(z.string().min(1).max(64)).min(1).max(100) })
  .openapi("BulkDeleteProjectsRequest");

export const bulkDeleteResultSchema = z
  .object({
    deleted: z.array(z.string()),
    failed: z.array(z.object({ id: z.string(), status: z.number().int(), detail: z.string() })),
  })
  .openapi("BulkDeleteProjectsResult");

/** Documentation of the DAG file format; the body is checked by the DAG parser, which reports per-node errors. */
export const dagFileDocSchema = {
  type: "object" as const,
  required: ["format", "graph"],
  properties: {
    format: { type: "string" as const, enum: [DAG_FORMAT] },
    name: { type: "string" as const, maxLength: 200 },
    graph: { $ref: "#/components/schemas/ArchitectureGraph" },
    training: { $ref: "#/components/schemas/TrainingConfigInput" },
  },
  description: `A DAG document (\`${DAG_FORMAT}\`): node params default to {} and positions to {x: 0, y: 0}`,
};

/** Documentation of the multipart DAG upload (read by the handler, which reports problems per field). */
export const dagUploadDocSchema = {
  type: "object" as const,
  required: ["file"],
  properties: {
    file: { type: "string" as const, format: "binary", description: "The DAG JSON file" },
    name: {
      type: "string" as const,
      minLength: 1,
      maxLength: PROJECT_NAME_MAX,
      description: "Project name (default: the document's `name`, else the file name)",
    },
  },
};

export const thumbnailFormSchema = z
  .object({
    file: z.instanceof(File).openapi({
      type: "string",
      format: "binary",
      description: "PNG, JPEG or WebP image (detected from its content), at most 2 MB",
    }),
  })
  .openapi("ThumbnailUpload");

export const thumbnailSchema = z
  .object({
    url: z.string(),
    content_type: z.enum(["image/png", "image/jpeg", "image/webp"]),
    size: z.number().int(),
  })
  .openapi("ProjectThumbnail");

// Versions

export const versionSummarySchema = z
  .object({
    id: z.string().openapi({ example: "ver_8ZkQ2mPq4LrT7wXy1bNc" }),
    project_id: z.string(),
    number: z.number().int().openapi({ description: "1, 2, 3… per project; never reused" }),
    message: z.string().nullable(),
    node_count: z.number().int(),
    edge_count: z.number().int(),
    is_current: z.boolean().openapi({ description: "This is the project's current_version_id" }),
    created_by: z.string().nullable().openapi({ description: "User id of the author" }),
    created_at: dateTime(),
  })
  .openapi("ProjectVersionSummary");

export const versionSchema = versionSummarySchema
  .extend({ graph: graphApiSchema, training_config: trainingConfigApiSchema })
  .openapi("ProjectVersion");

/** A project's version list: like other pages, but without `pages` (contract §4.1). */
export const versionPageSchema = z
  .object({
    items: z.array(versionSummarySchema),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
  })
  .openapi("ProjectVersionPage");

export const saveVersionBodySchema = z
  .object({
    message: z.string().trim().max(500).nullable().optional().openapi({ example: "Add dropout" }),
    graph: graphApiSchema.optional().openapi({ description: "Becomes the current graph before saving" }),
    training_config: trainingConfigInputSchema
      .optional()
      .openapi({ description: "Becomes the current configuration before saving" }),
  })
  .openapi("SaveVersionRequest");

const anyValue = z.unknown().openapi({ description: "Any JSON value" });

export const versionComparisonSchema = z
  .object({
    from: versionSummarySchema,
    to: versionSummarySchema,
    has_changes: z.boolean().openapi({ description: "Anything other than node positions differs" }),
    nodes: z.object({
      added: z.array(layerNodeApiSchema),
      removed: z.array(layerNodeApiSchema),
      changed: z.array(
        z.object({
          id: z.string(),
          type_changed: z.boolean(),
          label_changed: z.boolean(),
          params: z.array(z.object({ param: z.string(), before: anyValue, after: anyValue })),
          before: layerNodeApiSchema,
          after: layerNodeApiSchema,
        }),
      ),
      moved: z.array(z.string()).openapi({ description: "Ids of nodes whose only change is their position" }),
    }),
    edges: z.object({ added: z.array(graphEdgeApiSchema), removed: z.array(graphEdgeApiSchema) }),
    config: z.array(z.object({ field: z.string(), before: anyValue, after: anyValue })),
  })
  .openapi("ProjectVersionComparison");

export const restoreResultSchema = z
  .object({ project: projectSchema, version: versionSchema })
  .openapi("RestoreVersionResult");

// Shares

export const createdShareSchema = z
  .object({
    id: z.string().openapi({ example: "shr_5pQ9Lm2Xc8Vb1Nz4Kt7R" }),
    token: z.string().openapi({ description: "The share token. Shown only in this response." }),
    url: z.string().openapi({ description: "Path of the public page, `/shared/<token>`" }),
    created_at: dateTime(),
  })
  .openapi("CreatedProjectShare");

export const shareSchema = z
  .object({
    id: z.string(),
    active: z.boolean(),
    created_at: dateTime(),
    revoked_at: dateTime().nullable(),
    last_accessed_at: dateTime().nullable(),
    access_count: z.number().int(),
  })
  .openapi("ProjectShare");

export const sharedProjectSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    owner: z.object({ username: z.string(), display_name: z.string().nullable() }),
    graph: graphApiSchema,
    training_config: trainingConfigApiSchema,
    analysis: analysisSummarySchema,
    updated_at: dateTime(),
  })
  .openapi("SharedProject");

export const publicProjectSchema = sharedProjectSchema
  .extend({ id: z.string(), node_count: z.number().int() })
  .openapi("PublicProject");

export const publicProjectSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    node_count: z.number().int(),
    updated_at: dateTime(),
  })
  .openapi("PublicProjectSummary");

export const importSharedBodySchema = z
  .object({ name: projectName.optional().openapi({ description: "Default: the shared project's name" }) })
  .openapi("ImportSharedProjectRequest");

// Parameters

export const projectIdParams = z.object({
  project_id: pathParam("project_id"),
});

export const versionParams = projectIdParams.extend({
  version_id: pathParam("version_id"),
});

export const shareParams = projectIdParams.extend({
  share_id: pathParam("share_id"),
});

export const tokenParams = z.object({
  token: pathParam("token", { max: 128 }),
});

export const compareQuerySchema = z.object({
  from: z.string().min(1).max(64).openapi({ description: "Id of the older version" }),
  to: z.string().min(1).max(64).openapi({ description: "Id of the newer version" }),
});
