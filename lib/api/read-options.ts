/**
 * What a read hook of `lib/api/<area>/` lets its caller choose: the key and the fetch belong to the
 * area (so that mutations and streams reach the same cache entries), when and how often to read
 * belongs to the page.
 */
import type { keepPreviousData, QueryStatus } from "@tanstack/react-query";
import type { paths } from "./schema";

/** The JSON body of a path's 200 answer. */
export type Data<
  P extends keyof paths,
  M extends keyof paths[P] = "get" & keyof paths[P],
> = paths[P][M] extends {
  responses: { 200: { content: { "application/json": infer T } } };
}
  ? T
  : never;

export interface ReadOptions<T> {
  enabled?: boolean;
  staleTime?: number;
  retry?: boolean;
  refetchIntervalInBackground?: boolean;
  placeholderData?: typeof keepPreviousData;
  refetchInterval?:
    | number
    | false
    | ((query: { state: { data?: T; status: QueryStatus } }) => number | false | undefined);
}

/** The query parameters of a path's operation. */
export type QueryParams<
  P extends keyof paths,
  M extends keyof paths[P] = "get" & keyof paths[P],
> = paths[P][M] extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

/** The JSON request body of a path's operation. */
export type Body<
  P extends keyof paths,
  M extends keyof paths[P] = "post" & keyof paths[P],
> = paths[P][M] extends {
  requestBody?: { content: { "application/json": infer B } };
}
  ? B
  : never;
