import createFetchClient, { type Middleware } from "openapi-fetch";
import createQueryClient from "openapi-react-query";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];
export type Problem = Schemas["Problem"];

/** A failed API call, carrying the RFC 9457 problem details the server returned. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | null,
  ) {
    super(problem?.detail ?? `Request failed with status ${status}`);
    this.name = "ApiError";
  }

  /** Message for a form field (`body.name` → its message), if the server reported one. */
  fieldError(field: string): string | undefined {
    return this.problem?.errors?.find((e) => e.path === `body.${field}` || e.path === field)?.message;
  }
}

const problems: Middleware = {
  async onResponse({ response }) {
    if (response.ok) return undefined;
    let problem: Problem | null = null;
    try {
      problem = (await response.clone().json()) as Problem;
    } catch {
      problem = null;
    }
    throw new ApiError(response.status, problem);
  },
};

export function createApiClient(
  opts: { baseUrl?: string; fetch?: (req: Request) => Promise<Response> } = {},
) {
  const client = createFetchClient<paths>({
    baseUrl: opts.baseUrl ?? "",
    credentials: "same-origin",
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  client.use(problems);
  return client;
}

/** The browser's client (web session cookie) and its TanStack Query bindings. */
export const api = createApiClient();
export const $api = createQueryClient(api);
