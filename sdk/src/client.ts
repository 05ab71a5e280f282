/**
 * The Layerline TypeScript SDK: the generated openapi-fetch client (types from lib/api/schema.d.ts,
 * the one source of truth) with personal-key auth, retries (exponential backoff with full jitter on
 * 429, 5xx and network errors, honouring Retry-After), one Idempotency-Key per logical create reused
 * on its retries, typed problem errors, page iterators, resumable event streams and helpers for the
 * main flows. Runs on Node 20+ and in browsers (file helpers for Node are in ./node.ts).
 */
import createFetchClient, { type Client, type Middleware } from "openapi-fetch";
import type { components, paths } from "../../lib/api/schema";
import { LayerlineError, LayerlineNetworkError, parseRetryAfter } from "./errors";
import {
  backoffDelay,
  DEFAULT_RETRY,
  fetchUnlessAborted,
  fetchWithRetry,
  isRetryableStatus,
  type RetryOptions,
  sleep,
} from "./retry";
import { parseEventStream, type ServerEvent } from "./sse";

export type Schemas = components["schemas"];
export type TrainingJob = Schemas["TrainingJob"];
export type CreateTrainingJobBody = Omit<Schemas["CreateTrainingJob"], "strategy"> & { strategy?: string };
export type FetchLike = (request: Request) => Promise<Response>;

export interface LayerlineOptions {
  /** The server's origin, e.g. `https://layerline.example` (a trailing `/api/v1` is accepted). */
  baseUrl: string;
  /** A personal API key (`lk_…`), sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** Retry policy; `{ maxAttempts: 1 }` turns retries off. */
  retry?: Partial<RetryOptions>;
  /** The fetch to use (default: the global one). */
  fetch?: FetchLike;
}

/** Creates that the server makes idempotent with `Idempotency-Key` (contract §4.14). */
const IDEMPOTENT_CREATES = new Set([
  "/api/v1/training/jobs",
  "/api/v1/deployments",
  "/api/v1/deployments/from-model-version",
]);

export const TERMINAL_JOB_STATES = ["succeeded", "failed", "cancelled", "timed_out"] as const;

/** A fresh Idempotency-Key (128 random bits). */
export function newIdempotencyKey(): string {
  return `ik_${globalThis.crypto.randomUUID()}`;
}

/** Something to upload: a browser File/Blob, or `fileSource(path)` from ./node.ts. */
export interface UploadSource {
  name: string;
  size: number;
  stream(): ReadableStream<Uint8Array>;
}

export type Progress = (sent: number, total: number) => void;

/** Counts bytes as they pass (for progress bars). */
export function countingStream(
  source: ReadableStream<Uint8Array>,
  onChunk: (chunk: Uint8Array) => void,
): ReadableStream<Uint8Array> {
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        onChunk(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
}

// Paths whose GET answers a `{items, total, page, limit, pages}` page.
type GetOf<P extends keyof paths> = paths[P] extends { get: infer G } ? G : never;
type PageBody<P extends keyof paths> =
  GetOf<P> extends {
    responses: { 200: { content: { "application/json": infer B } } };
  }
    ? B
    : never;
export type PagedPath = {
  [P in keyof paths]: PageBody<P> extends { items: unknown[]; pages: number } ? P : never;
}[keyof paths];
export type PageItem<P extends PagedPath> = PageBody<P> extends { items: (infer I)[] } ? I : never;
type QueryOf<P extends keyof paths> = GetOf<P> extends { parameters: { query?: infer Q } } ? Q : never;
type PathParamsOf<P extends keyof paths> = GetOf<P> extends { parameters: { path?: infer Q } } ? Q : never;
export type PageQuery<P extends PagedPath> = Omit<NonNullable<QueryOf<P>>, "page">;

export interface StreamOptions {
  /** Resume after this event id (default: from the start). */
  lastEventId?: number;
  signal?: AbortSignal;
  /** Consecutive reconnects without a new event before giving up (default 8). */
  maxReconnects?: number;
}

export class Layerline {
  /** The typed openapi-fetch client for every route (`client.api.GET("/api/v1/projects")`). */
  readonly api: Client<paths>;
  readonly baseUrl: string;
  readonly retry: RetryOptions;
  private readonly apiKey: string | undefined;
  private readonly rawFetch: FetchLike;

  constructor(opts: LayerlineOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
    this.apiKey = opts.apiKey;
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.rawFetch = opts.fetch ?? ((request) => globalThis.fetch(request));
    this.api = createFetchClient<paths>({ baseUrl: this.baseUrl, fetch: (request) => this.send(request) });
    this.api.use(this.middleware());
  }

  private middleware(): Middleware {
    return {
      onRequest: ({ request, schemaPath }) => {
        if (this.apiKey && !request.headers.has("Authorization"))
          request.headers.set("Authorization", `Bearer ${this.apiKey}`);
        // One key per logical create: set here once, reused by every retry inside send().
        if (
          request.method === "POST" &&
          IDEMPOTENT_CREATES.has(schemaPath) &&
          !request.headers.has("Idempotency-Key")
        )
          request.headers.set("Idempotency-Key", newIdempotencyKey());
        return request;
      },
      onResponse: async ({ response }) => {
        if (!response.ok) throw await LayerlineError.from(response.clone());
        return undefined;
      },
    };
  }

  /** Sends a request with the retry policy (the body is buffered: API bodies are small JSON). */
  private async send(request: Request): Promise<Response> {
    const body = request.body ? await request.arrayBuffer() : undefined;
    return fetchWithRetry(
      () =>
        new Request(request.url, {
          method: request.method,
          headers: request.headers,
          body,
          signal: request.signal,
        }),
      this.rawFetch,
      // The caller's Request stays reachable here, so its signal does too (see fetchUnlessAborted).
      { ...this.retry, signal: request.signal },
    );
  }

  /** An absolute URL for a server path (stream and upload URLs may come back relative). */
  url(path: string): string {
    return new URL(path, `${this.baseUrl}/`).toString();
  }

  /** Raw request with auth and retries, for streamed bodies; throws LayerlineError when not ok. */
  async request(
    path: string,
    init: {
      method?: string;
      headers?: Record<string, string>;
      body?: () => BodyInit | null;
      signal?: AbortSignal;
      auth?: boolean;
      replaySafe?: boolean;
    } = {},
  ): Promise<Response> {
    const headers = new Headers(init.headers);
    if (init.auth !== false && this.apiKey && !headers.has("Authorization"))
      headers.set("Authorization", `Bearer ${this.apiKey}`);
    const response = await fetchWithRetry(
      () =>
        new Request(this.url(path), {
          method: init.method ?? "GET",
          headers,
          body: init.body?.() ?? null,
          signal: init.signal,
          duplex: "half",
        } as RequestInit),
      this.rawFetch,
      {
        ...this.retry,
        signal: init.signal ?? null,
        ...(init.replaySafe !== undefined ? { replaySafe: init.replaySafe } : {}),
      },
    );
    if (!response.ok) throw await LayerlineError.from(response);
    return response;
  }

  /**
   * Every item of a paged list, page after page: `for await (const job of client.paginate(
   * "/api/v1/training/jobs", { state: "running" }))`. `limit` is the page size (default 100).
   */
  async *paginate<P extends PagedPath>(
    path: P,
    query?: PageQuery<P>,
    pathParams?: PathParamsOf<P>,
  ): AsyncGenerator<PageItem<P>> {
    for (let page = 1; ; page++) {
      const params = { query: { limit: 100, ...query, page }, ...(pathParams ? { path: pathParams } : {}) };
      // The union of every paged path's init is too wide for TypeScript to check generically; the
      // public signature above is what keeps calls typed.
      const { data } = await (this.api.GET as (p: string, i: unknown) => Promise<{ data?: unknown }>)(path, {
        params,
      });
      const body = data as { items: PageItem<P>[]; pages: number } | undefined;
      if (!body) return;
      for (const item of body.items) yield item;
      if (page >= body.pages || body.items.length === 0) return;
    }
  }

  /**
   * A resumable event stream (training job or deployment): mints a stream token, reads the
   * server-sent events, and on a dropped connection reconnects with `Last-Event-ID` (minting a new
   * token when the old one is refused). Never yields an id twice; ends when the server says the
   * stream is over (204 after a terminal status).
   */
  async *stream(
    kind: "training" | "deployment",
    id: string,
    opts: StreamOptions = {},
  ): AsyncGenerator<ServerEvent> {
    const maxReconnects = opts.maxReconnects ?? 8;
    let last: number | null = opts.lastEventId ?? null;
    let url: string | null = null;
    let failures = 0;
    let freshToken = false;
    const giveUp = (why: string, cause: unknown) =>
      new LayerlineNetworkError(
        `The ${kind} stream of ${id} dropped ${failures} times in a row: ${why}`,
        cause,
      );
    for (;;) {
      if (!url) {
        url = await this.mintStreamUrl(kind, id);
        freshToken = true;
      }
      let response: Response;
      try {
        response = await fetchUnlessAborted(
          this.rawFetch,
          new Request(this.url(url), {
            headers: {
              Accept: "text/event-stream",
              ...(last !== null ? { "Last-Event-ID": String(last) } : {}),
            },
            signal: opts.signal,
          }),
          opts.signal,
        );
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        if (++failures > maxReconnects) throw giveUp(String(err), err);
        await sleep(backoffDelay(failures, this.retry), opts.signal);
        continue;
      }
      if (response.status === 204) return;
      if (response.status === 401 || response.status === 403) {
        // The token expired or was revoked: mint one more, once per connection attempt.
        if (freshToken) throw await LayerlineError.from(response);
        await response.body?.cancel().catch(() => {});
        url = null;
        continue;
      }
      if (!response.ok || !response.body) {
        if (!isRetryableStatus(response.status) || ++failures > maxReconnects)
          throw await LayerlineError.from(response);
        const wait =
          parseRetryAfter(response.headers.get("Retry-After")) ?? backoffDelay(failures, this.retry);
        await response.body?.cancel().catch(() => {});
        await sleep(wait, opts.signal);
        continue;
      }
      freshToken = false;
      let progressed = false;
      try {
        for await (const event of parseEventStream(response.body, opts.signal)) {
          if (last !== null && event.id <= last) continue;
          last = event.id;
          progressed = true;
          failures = 0;
          yield event;
        }
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        // The connection dropped mid-stream: reconnect below with Last-Event-ID.
      }
      if (!progressed && ++failures > maxReconnects) throw giveUp("no new events", null);
      if (!progressed) await sleep(backoffDelay(failures, this.retry), opts.signal);
    }
  }

  private async mintStreamUrl(kind: "training" | "deployment", id: string): Promise<string> {
    const { data } =
      kind === "training"
        ? await this.api.POST("/api/v1/training/jobs/{job_id}/stream-access-token", {
            params: { path: { job_id: id } },
          })
        : await this.api.POST("/api/v1/deployments/{deployment_id}/stream-access-token", {
            params: { path: { deployment_id: id } },
          });
    if (!data) throw new LayerlineError(500, { detail: "The server returned no stream token." }, null, null);
    return data.stream_url;
  }

  // ---------------------------------------------------------------- flows

  async getJob(jobId: string): Promise<TrainingJob> {
    const { data } = await this.api.GET("/api/v1/training/jobs/{job_id}", {
      params: { path: { job_id: jobId } },
    });
    return must(data);
  }

  /** Creates a training job (one Idempotency-Key for the call and all its retries). */
  async createTrainingJob(
    body: CreateTrainingJobBody,
    opts: { idempotencyKey?: string } = {},
  ): Promise<TrainingJob> {
    const { data } = await this.api.POST("/api/v1/training/jobs", {
      // `strategy` has a server default; the generated type marks it required.
      body: body as Schemas["CreateTrainingJob"],
      params: { header: { "Idempotency-Key": opts.idempotencyKey ?? newIdempotencyKey() } },
    });
    return must(data);
  }

  /** Follows a job's events until it finishes; returns the finished job. */
  async followJob(
    jobId: string,
    opts: StreamOptions & { onEvent?: (event: ServerEvent) => void } = {},
  ): Promise<TrainingJob> {
    for await (const event of this.stream("training", jobId, opts)) {
      opts.onEvent?.(event);
      const status = (event.data as { status?: string } | null)?.status;
      if (event.event === "status" && isTerminal(status)) break;
    }
    return this.getJob(jobId);
  }

  /** Creates a job and follows it to the end. */
  async train(
    body: CreateTrainingJobBody,
    opts: StreamOptions & {
      onEvent?: (event: ServerEvent) => void;
      onCreated?: (job: TrainingJob) => void;
    } = {},
  ): Promise<TrainingJob> {
    const job = await this.createTrainingJob(body);
    opts.onCreated?.(job);
    return this.followJob(job.id, opts);
  }

  /** Deploys a succeeded job or a model version; the response holds the one-time key `api_key`. */
  async deploy(body: Schemas["CreateDeployment"], opts: { idempotencyKey?: string } = {}) {
    const { data } = await this.api.POST("/api/v1/deployments", {
      body,
      params: { header: { "Idempotency-Key": opts.idempotencyKey ?? newIdempotencyKey() } },
    });
    return must(data);
  }

  /** Predicts with a deployment key (`ldk_…`): one output per input, in order. */
  async predict(deploymentId: string, deploymentKey: string, inputs: unknown[]) {
    const { data } = await this.api.POST("/api/v1/inference/{deployment_id}/predict", {
      params: { path: { deployment_id: deploymentId } },
      headers: { Authorization: `Bearer ${deploymentKey}` },
      body: { inputs },
    });
    return must(data);
  }

  /**
   * Uploads a dataset file as multipart form data, streamed (never buffered) with a progress
   * callback. Retried as a whole on 429/5xx: the server stores identical content only once.
   */
  async uploadDataset(
    file: UploadSource,
    opts: {
      name?: string;
      description?: string;
      datasetId?: string;
      onProgress?: Progress;
      signal?: AbortSignal;
    } = {},
  ): Promise<Schemas["DatasetUploadResult"]> {
    const boundary = `----layerline${globalThis.crypto.randomUUID().replace(/-/g, "")}`;
    const encoder = new TextEncoder();
    const fields: [string, string][] = [];
    if (opts.name) fields.push(["name", opts.name]);
    if (opts.description) fields.push(["description", opts.description]);
    if (opts.datasetId) fields.push(["dataset_id", opts.datasetId]);
    const quote = (s: string) => s.replace(/["\r\n\\]/g, "_");
    let head = "";
    for (const [k, v] of fields)
      head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
    head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quote(file.name)}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const headBytes = encoder.encode(head);
    const tailBytes = encoder.encode(`\r\n--${boundary}--\r\n`);
    const length = headBytes.byteLength + file.size + tailBytes.byteLength;
    const body = () => {
      let sent = 0;
      opts.onProgress?.(0, file.size);
      const counted = countingStream(file.stream(), (chunk) => {
        sent += chunk.byteLength;
        opts.onProgress?.(sent, file.size);
      });
      return concatStreams([headBytes, counted, tailBytes]);
    };
    const response = await this.request("/api/v1/datasets/", {
      method: "POST",
      headers: {
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Content-Length": String(length),
      },
      body,
      signal: opts.signal,
      replaySafe: true,
    });
    return (await response.json()) as Schemas["DatasetUploadResult"];
  }
}

export function isTerminal(state: string | undefined | null): boolean {
  return (TERMINAL_JOB_STATES as readonly string[]).includes(state ?? "");
}

function must<T>(data: T | undefined): T {
  if (data === undefined)
    throw new LayerlineError(500, { detail: "The server returned an empty body." }, null, null);
  return data;
}

/** One stream of byte arrays and streams, in order, read lazily. */
export function concatStreams(
  parts: (Uint8Array | ReadableStream<Uint8Array>)[],
): ReadableStream<Uint8Array> {
  let index = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (reader) {
          const { done, value } = await reader.read();
          if (!done) return controller.enqueue(value);
          reader = null;
          continue;
        }
        const part = parts[index++];
        if (part === undefined) return controller.close();
        if (part instanceof Uint8Array) return controller.enqueue(part);
        reader = part.getReader();
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason);
    },
  });
}
