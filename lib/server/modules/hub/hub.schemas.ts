/**
 * Request and response schemas of the hub (issue 15, contract §4.9): shared by the routes (the
 * OpenAPI document) and the hub services.
 */
import { z } from "@hono/zod-openapi";
import { HUB_STATES, HUB_VISIBILITIES } from "../../db/schema/hub";
import { pathParam } from "../../http/openapi";
import { pageQuerySchema } from "../../http/paging";
import { graphApiSchema, trainingConfigInputSchema } from "../projects/projects.schemas";

const dateTime = () => z.string().openapi({ format: "date-time" });

export const HUB_SORTS = ["relevance", "trending", "downloads", "stars", "updated"] as const;
export type HubSort = (typeof HUB_SORTS)[number];

export const hubModelIdParams = z.object({ model_id: pathParam("model_id") });
export const hubFileParams = z.object({ model_id: pathParam("model_id"), file_id: pathParam("file_id") });

const label = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9][A-Za-z0-9 ._+/-]*$/, `${what}: letters, digits, space and . _ + / - only`);

const tag = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(32)
  .regex(/^[a-z0-9][a-z0-9._+-]*$/, "A tag is lowercase letters, digits and . _ + -");

export const hubVisibilitySchema = z.enum(HUB_VISIBILITIES).openapi("HubVisibility", {
  description: "`private` models are seen by their owner only (a paid plan's feature)",
});

const editableFields = {
  name: z.string().trim().min(1).max(100).openapi({ example: "Iris classifier" }),
  description: z.string().max(2000),
  task: label("task").nullable().openapi({ example: "tabular-classification" }),
  framework: label("framework").nullable().openapi({ example: "pytorch" }),
  license: label("license").nullable().openapi({ example: "apache-2.0" }),
  tags: z.array(tag).max(20),
  category: label("category").nullable().openapi({ description: "Defaults to the task" }),
  card: z
    .string()
    .max(100_000)
    .openapi({ description: "The model card, markdown (raw HTML is not rendered)" }),
  visibility: hubVisibilitySchema,
  architecture: graphApiSchema.nullable().openapi({
    description: "The architecture DAG; a model with one can be opened in the studio (use-in-studio)",
  }),
  training_config: trainingConfigInputSchema.nullable(),
  base_model: z.string().trim().min(1).max(200).nullable(),
};

export const createHubModelBodySchema = z
  .object({
    name: editableFields.name.optional(),
    description: editableFields.description.optional(),
    task: editableFields.task.optional(),
    framework: editableFields.framework.optional(),
    license: editableFields.license.optional(),
    tags: editableFields.tags.optional(),
    category: editableFields.category.optional(),
    card: editableFields.card.optional(),
    visibility: editableFields.visibility.optional(),
    architecture: editableFields.architecture.optional(),
    training_config: editableFields.training_config.optional(),
    base_model: editableFields.base_model.optional(),
    source_job_id: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({
        description:
          "Publish a succeeded training job or fine-tuning run of yours: its artifact files and manifest, its " +
          "architecture, its metrics as evaluation figures and a generated model card are copied, and the " +
          "model is published at once. Fields given here override what the job provides.",
      }),
    source_model_version_id: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({
        description:
          "Publish a finalized registry model version of yours: one pushed from a job or run publishes as that " +
          "job does (named after the registry model); a bare version publishes its uploaded artifacts with a " +
          "card made from its figures. Excludes `source_job_id`.",
      }),
  })
  .strict()
  .refine(
    (b) => b.name !== undefined || b.source_job_id !== undefined || b.source_model_version_id !== undefined,
    {
      message: "A name is required (or a source_job_id or source_model_version_id, whose name is used)",
      path: ["name"],
    },
  )
  .refine((b) => !(b.source_job_id && b.source_model_version_id), {
    message: "Give either source_job_id or source_model_version_id, not both",
    path: ["source_model_version_id"],
  })
  .openapi("CreateHubModel");
export type CreateHubModelBody = z.infer<typeof createHubModelBodySchema>;

export const updateHubModelBodySchema = z
  .object({
    name: editableFields.name.optional(),
    description: editableFields.description.optional(),
    task: editableFields.task.optional(),
    framework: editableFields.framework.optional(),
    license: editableFields.license.optional(),
    tags: editableFields.tags.optional(),
    category: editableFields.category.optional(),
    card: editableFields.card.optional(),
    visibility: editableFields.visibility.optional(),
    architecture: editableFields.architecture.optional(),
    training_config: editableFields.training_config.optional(),
    base_model: editableFields.base_model.optional(),
  })
  .strict()
  .openapi("UpdateHubModel", { description: "Only the fields given change" });
export type UpdateHubModelBody = z.infer<typeof updateHubModelBodySchema>;

export const hubOwnerSchema = z.object({ id: z.string(), username: z.string() }).openapi("HubOwner");

export const hubEvaluationSchema = z
  .object({
    metrics: z.record(z.string(), z.number()),
    dataset: z.string().nullable(),
    split: z.string().nullable(),
    samples: z
      .array(
        z.object({
          image: z.string().openapi({ description: "A PNG thumbnail (data: URL), at most 64×64" }),
          actual: z.string(),
          predicted: z.string(),
          confidence: z.number(),
        }),
      )
      .optional()
      .openapi({
        description:
          "Image models: a few of the pictures it was validated on (one class after another) with what it predicts",
      }),
  })
  .openapi("HubEvaluation", { description: "The figures the model was measured with" });

export const hubModelSummarySchema = z
  .object({
    id: z.string().openapi({ example: "hub_3kTq9xV2mLw8Rb1cZp0a" }),
    slug: z.string(),
    name: z.string(),
    owner: hubOwnerSchema,
    description: z.string(),
    task: z.string().nullable(),
    framework: z.string().nullable(),
    license: z.string().nullable(),
    tags: z.array(z.string()),
    category: z.string().nullable(),
    visibility: hubVisibilitySchema,
    state: z.enum(HUB_STATES).openapi({ description: "draft → published (finalize)" }),
    has_architecture: z.boolean(),
    evaluation: hubEvaluationSchema.nullable(),
    parent_id: z.string().nullable().openapi({ description: "The model this one was forked from" }),
    base_model: z.string().nullable(),
    source_job_id: z.string().nullable(),
    downloads: z.number().int().openapi({ description: "Content fetches (files and ZIPs), not page views" }),
    stars: z.number().int(),
    featured: z.boolean(),
    created_at: dateTime(),
    updated_at: dateTime(),
    published_at: dateTime().nullable(),
  })
  .openapi("HubModelSummary");
export type HubModelSummaryView = z.infer<typeof hubModelSummarySchema>;

export const hubModelRefSchema = z
  .object({ id: z.string(), name: z.string(), owner: hubOwnerSchema, base_model: z.string().nullable() })
  .openapi("HubModelRef");

export const hubModelSchema = hubModelSummarySchema
  .extend({
    card: z.string(),
    card_html: z.string().openapi({ description: "The model card rendered to sanitised HTML" }),
    architecture: graphApiSchema.nullable(),
    training_config: z.record(z.string(), z.unknown()).nullable(),
    rating: z.object({ average: z.number().nullable(), count: z.number().int() }),
    starred: z
      .boolean()
      .openapi({ description: "Whether the caller has starred it (false when signed out)" }),
    fork_tree: z
      .object({
        ancestors: z.array(hubModelRefSchema).openapi({
          description: "The parent first, up to the original model (only the ones you can see)",
        }),
        children: z.array(hubModelRefSchema).openapi({ description: "Direct forks you can see" }),
      })
      .openapi("HubForkTree"),
  })
  .openapi("HubModel");
export type HubModelView = z.infer<typeof hubModelSchema>;

export const listHubModelsQuerySchema = pageQuerySchema.extend({
  q: z.string().trim().max(200).optional().openapi({
    description:
      'Full-text query (web-search syntax: words, "phrases", -excluded, or) over name, tags, task, description and card',
  }),
  task: label("task").optional(),
  framework: label("framework").optional(),
  license: label("license").optional(),
  category: label("category").optional(),
  tags: z.string().max(400).optional().openapi({
    description: "Comma-separated tags, all of which the model carries",
    example: "tabular,iris",
  }),
  owner: z.string().min(1).max(64).optional().openapi({
    description: "A username: that user's models (your own drafts and private models too when it is you)",
  }),
  sort: z.enum(HUB_SORTS).optional().openapi({
    description:
      "relevance (default with q), trending (stars in the last 7 days), downloads, stars, updated (default without q)",
  }),
});
export type ListHubModelsQuery = z.infer<typeof listHubModelsQuerySchema>;

export const searchHubModelsQuerySchema = listHubModelsQuerySchema.extend({
  q: z.string().trim().min(1).max(200).openapi({ description: "Full-text query (web-search syntax)" }),
});

export const hubCategorySchema = z
  .object({ category: z.string(), count: z.number().int() })
  .openapi("HubCategory");

export const hubFileSchema = z
  .object({
    id: z.string(),
    model_id: z.string(),
    path: z.string(),
    size_bytes: z.number().int(),
    sha256: z.string(),
    content_type: z.string(),
    created_at: dateTime(),
    updated_at: dateTime(),
  })
  .openapi("HubFile");
export type HubFileView = z.infer<typeof hubFileSchema>;

export const FILE_PATH_PATTERN = /^(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._-][A-Za-z0-9._ /-]{0,254}$/;
export const hubFilePathSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(FILE_PATH_PATTERN, "A relative path of letters, digits, space and . _ - / (no . or .. segments)");

export const uploadHubFileQuerySchema = z.object({
  path: hubFilePathSchema.optional().openapi({
    description:
      "The file's path in the model (raw bodies; multipart uploads may send a `path` field instead)",
    example: "model.onnx",
  }),
});

/** Multipart form of a file upload (a plain JSON schema: the body is streamed, never parsed by a validator). */
export const uploadHubFileFormSchema = {
  type: "object" as const,
  required: ["file"],
  properties: {
    file: { type: "string" as const, format: "binary", description: "The file's bytes" },
    path: { type: "string" as const, maxLength: 255, description: "Defaults to the part's file name" },
  },
};

export const downloadBodySchema = z
  .object({
    file_id: z.string().min(1).max(64).optional().openapi({
      description: "One file; without it, the link downloads every file as a ZIP",
    }),
  })
  .strict()
  .openapi("HubDownloadRequest");

export const downloadLinkSchema = z
  .object({
    url: z.string().openapi({ description: "Signed URL (15 minutes, reusable); no credential needed" }),
    expires_at: dateTime(),
  })
  .openapi("HubDownloadLink");

export const signedQuerySchema = z.object({
  expires: z.string().max(20).optional().openapi({ description: "Signed link: expiry (Unix seconds)" }),
  sig: z.string().max(100).optional().openapi({ description: "Signed link: HMAC signature" }),
  n: z.string().max(64).optional().openapi({ description: "Signed link: its nonce (one download per link)" }),
  v: z.string().max(64).optional().openapi({ description: "Signed link: the account that minted it" }),
});

export const starStateSchema = z
  .object({ starred: z.boolean(), stars: z.number().int() })
  .openapi("HubStarState");

export const forkBodySchema = z
  .object({
    name: editableFields.name.optional().openapi({ description: "Defaults to the parent's name" }),
    visibility: hubVisibilitySchema.optional(),
  })
  .strict()
  .openapi("HubForkRequest");
export type ForkBody = z.infer<typeof forkBodySchema>;

export const createReviewBodySchema = z
  .object({
    rating: z.number().int().min(1).max(5),
    text: z.string().trim().max(5000).default(""),
    evaluation_id: z.string().min(1).max(64).optional().openapi({
      description: "A succeeded evaluation of yours; its figures are shown beside the review",
    }),
  })
  .strict()
  .openapi("CreateHubReview");
export type CreateReviewBody = z.infer<typeof createReviewBodySchema>;

export const hubReviewSchema = z
  .object({
    id: z.string(),
    model_id: z.string(),
    user: z.object({ username: z.string() }),
    rating: z.number().int(),
    text: z.string(),
    evaluation: z
      .object({ id: z.string(), metrics: z.record(z.string(), z.number()) })
      .nullable()
      .openapi({ description: "The evaluation the review cites, with its figures" }),
    created_at: dateTime(),
    updated_at: dateTime(),
  })
  .openapi("HubReview");
export type HubReviewView = z.infer<typeof hubReviewSchema>;

export const createVersionBodySchema = z
  .object({
    version: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._+-]*$/, "Letters, digits and . _ + -")
      .openapi({ example: "1.1.0" }),
    notes: z.string().max(5000).default(""),
  })
  .strict()
  .openapi("CreateHubVersion");
export type CreateVersionBody = z.infer<typeof createVersionBodySchema>;

export const hubVersionSchema = z
  .object({
    id: z.string(),
    model_id: z.string(),
    version: z.string(),
    notes: z.string(),
    files: z.array(
      z.object({
        path: z.string(),
        size_bytes: z.number().int(),
        sha256: z.string(),
        content_type: z.string(),
      }),
    ),
    created_at: dateTime(),
  })
  .openapi("HubVersion", { description: "A snapshot of the model's files" });
export type HubVersionView = z.infer<typeof hubVersionSchema>;
