import { createRoute } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { idempotency } from "../../http/idempotency";
import { errors, idempotencyKeyHeaders, jsonBody, jsonContent, security } from "../../http/openapi";
import { createFoundationRunBodySchema, foundationRunSchema, runIdParams } from "./foundation-runs.schemas";

const tags = ["Training"];
const userCreds = ["api_key", "session"] as const;
const auth = { security: security([...userCreds]), middleware: [credentials([...userCreds])] };
const base = "/api/v1/training/foundation-runs";

export const createFoundationRun = createRoute({
  method: "post",
  path: base,
  operationId: "createFoundationRun",
  tags,
  summary: "Start a fine-tuning run (honours Idempotency-Key)",
  description:
    "Starts from a base model of `GET /foundation-catalog` on the caller's dataset: a training job (same id, " +
    "states, metrics, logs, checkpoints, stream and artifact) whose weights start from the base model's. When " +
    "the dataset's labels differ from the base model's, the head is resized and started afresh " +
    "(`fine_tune.replaced_layers`); `freeze` keeps layers at their base weights; `lr_schedule` and " +
    "`warmup_epochs` shape the learning rate. A language model keeps its vocabulary: the dataset's text is " +
    "encoded with it and characters outside it are dropped. An image base model on an image ZIP: the classes are " +
    "its class folders, and its pictures are converted, resized (the base model's `resize` unless `config` sets " +
    "one) and normalised with the base model's recorded mean and std (image step `source: base_model`). The configuration is the base model's, then the " +
    "recipe's (`recipe_id`), then `config`. Each run gets its own project (“<base> fine-tuned on <dataset>”) " +
    "holding its architecture. Unknown base model → 404; a dataset of another task or shape → 422 naming " +
    "`body.dataset_id`; runtime other than auto/pytorch → 422; no PyTorch on the workers or the base weights " +
    "missing → 409; no credits → 402 (`insufficient-credits`); a strategy the plan lacks → 402 (`plan-limit`).",
  ...auth,
  middleware: [credentials([...userCreds]), idempotency()],
  request: {
    headers: idempotencyKeyHeaders,
    body: jsonBody(createFoundationRunBodySchema),
  },
  responses: {
    201: jsonContent(foundationRunSchema, "The queued run"),
    ...errors(400, 401, 402, 403, 404, 409, 422),
  },
});

export const getFoundationRun = createRoute({
  method: "get",
  path: `${base}/{run_id}`,
  operationId: "getFoundationRun",
  tags,
  summary: "Get a fine-tuning run",
  description:
    "The run as a training job plus its base model, fine-tuning settings and replaced layers. A training job " +
    "that is not a fine-tuning run → 404.",
  ...auth,
  request: { params: runIdParams },
  responses: { 200: jsonContent(foundationRunSchema, "The run"), ...errors(401, 403, 404) },
});
