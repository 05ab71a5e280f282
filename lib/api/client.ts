import createFetchClient, { type Middleware } from "openapi-fetch";
import createQueryClient from "openapi-react-query";
import { LayerlineError } from "@/sdk/src/errors";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];
export type Problem = Schemas["Problem"];

/** Every failed response becomes a LayerlineError (the SDK's problem error, shared with the studio). */
const problems: Middleware = {
  async onResponse({ response }) {
    if (response.ok) return undefined;
    throw await LayerlineError.from(response.clone());
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
