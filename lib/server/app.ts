import { OpenAPIHono } from "@hono/zod-openapi";
import { getDb } from "./db/client";
import "./job-types";
import { jsonBodyLimit, streamingBodyLimit } from "./http/body-limit";
import type { AppEnv } from "./http/env";
import { healthRouter } from "./http/health";
import { openApiDocument, registerSecuritySchemes } from "./http/openapi";
import { handleError, problemResponse } from "./http/problem";
import { requestId } from "./http/request-id";
import { requestLogging } from "./http/request-logging";
import { accountRouter } from "./modules/account/account.index";
import { authRouter } from "./modules/account/auth.index";
import { auditsRouter } from "./modules/audits/audits.index";
import { catalogRouter } from "./modules/catalog/catalog.index";
import { codegenRouter } from "./modules/codegen/codegen.index";
import { datasetsRouter } from "./modules/datasets/datasets.index";
import { deploymentsRouter } from "./modules/deployments/deployments.index";
import { openaiRouter } from "./modules/deployments/openai.index";
import { evaluationsRouter } from "./modules/evaluations/evaluations.index";
import { hubRouter } from "./modules/hub/hub.index";
import { projectsRouter } from "./modules/projects/projects.index";
import { registryRouter } from "./modules/registry/registry.index";
import { trainingRouter } from "./modules/training/training.index";

/** Contract §7/§8: request bodies above 550 MB are refused (counted while streaming, never buffered). */
export const MAX_REQUEST_BYTES = 550 * 1024 * 1024;

export const OPENAPI_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Layerline API",
    version: "1.0.0",
    description:
      "Design, train, deploy and share machine-learning models. Errors are RFC 9457 problem details; " +
      "every response carries X-Request-ID. Authenticate with `Authorization: Bearer <personal API key>`.",
    license: { name: "MIT", identifier: "MIT" },
  },
  servers: [{ url: "/", description: "This server" }],
  security: [{ personalApiKey: [] }],
  tags: [
    { name: "Auth", description: "Web sessions for the studio" },
    { name: "Account", description: "Keys, plan, credits and profiles" },
    { name: "Health", description: "Service health" },
    { name: "Projects", description: "Diagram, configuration, DAG import, thumbnails and share links" },
    { name: "Architecture versions", description: "Saved, comparable and restorable versions of a project" },
    { name: "Datasets", description: "Upload, browse, profile, version, scan and split datasets" },
    {
      name: "Training",
      description:
        "Training jobs on PyTorch, TensorFlow.js or your own hardware: live event streams, metrics, logs, checkpoints and model artifacts",
    },
    {
      name: "Evaluations",
      description:
        "A job's model measured on a dataset split: accuracy, per-class metrics, confusion matrix and ROC curves, or MSE, MAE and R²",
    },
    {
      name: "Deployments",
      description: "Serve a trained model behind its own key: revisions, key rotation, pause and resume",
    },
    {
      name: "Inference",
      description: "Predict with a deployment, authenticated by its deployment key (`ldk_…`)",
    },
    {
      name: "OpenAI-compatible",
      description:
        "A language-model deployment for OpenAI clients at the root `/v1` (`baseURL: <origin>/v1`, the deployment key as API key); errors in OpenAI's shape",
    },
    {
      name: "Model registry",
      description:
        "Model entries with numbered versions (pushed from a job or run, or uploaded), artifacts with checksums, aliases, lineage, evaluations and task contracts",
    },
    {
      name: "Hub",
      description:
        "Share models publicly: search, stars, forks, reviews, versions, signed downloads and use in the studio",
    },
    {
      name: "Audits",
      description:
        "Measure a workload you run today (logged calls to a model or hosted API) and try cheaper candidates fine-tuned on it: reports, share links, retraining, cancel and delete",
    },
    {
      name: "Base models",
      description:
        "The curated base-model catalog: small models pretrained offline from data shipped with the service, to fine-tune",
    },
  ],
};

export function createApp(opts: { maxRequestBytes?: number } = {}) {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: undefined,
  });
  app.use("*", requestId);
  app.use("*", async (c, next) => {
    try {
      c.set("db", await getDb());
    } catch (err) {
      console.error("database unavailable", err instanceof Error ? err.message : err);
      return problemResponse(c, 503, "The database is unavailable.");
    }
    await next();
  });
  app.use(
    "*",
    streamingBodyLimit(opts.maxRequestBytes ?? MAX_REQUEST_BYTES, "The request body is larger than 550 MB."),
  );
  // JSON bodies: 1 MiB unless a route allows more (http/body-limit.ts), refused before parsing.
  app.use("*", jsonBodyLimit());

  app.use("/api/v1/inference/*", requestLogging);
  app.use("/v1/*", requestLogging);

  const routes = app
    .route("/", healthRouter)
    .route("/", authRouter)
    .route("/", accountRouter)
    .route("/", projectsRouter)
    .route("/", datasetsRouter)
    .route("/", codegenRouter)
    .route("/", trainingRouter)
    .route("/", evaluationsRouter)
    .route("/", deploymentsRouter)
    .route("/", catalogRouter)
    .route("/", hubRouter)
    .route("/", registryRouter)
    .route("/", auditsRouter)
    .route("/", openaiRouter);

  registerSecuritySchemes(app);
  let document: ReturnType<typeof openApiDocument> | undefined;
  app.get("/api/v1/openapi.json", (c) => {
    document ??= openApiDocument(app, OPENAPI_INFO);
    return c.json(document);
  });

  app.notFound((c) => problemResponse(c, 404, `No route for ${c.req.method} ${c.req.path}.`));
  app.onError(handleError);
  return routes;
}

export type App = ReturnType<typeof createApp>;

const globalForApp = globalThis as unknown as { __layerlineApp?: App };

export function getApp(): App {
  globalForApp.__layerlineApp ??= createApp();
  return globalForApp.__layerlineApp;
}
