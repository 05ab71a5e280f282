import { z } from "@hono/zod-openapi";

export const MAX_PAGE_SIZE = 100;

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1).openapi({ description: "Page number, from 1", example: 1 }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(20)
    .openapi({ description: "Items per page (1–100)", example: 20 }),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** For routes that allow a larger page (training logs and metrics, deployment logs). */
export function largePageQuerySchema(max: number) {
  return z.object({
    page: pageQuerySchema.shape.page,
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(max)
      .default(100)
      .openapi({ description: `Items per page (1–${max})` }),
  });
}

/** Dataset listing and browsing page with skip/limit and return a plain array. */
export const skipLimitQuerySchema = z.object({
  skip: z.coerce.number().int().min(0).default(0).openapi({ description: "Items to skip" }),
  limit: pageQuerySchema.shape.limit,
});

export function pagedSchema<T extends z.ZodTypeAny>(item: T, name: string) {
  return z
    .object({
      items: z.array(item),
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
      pages: z.number().int(),
    })
    .openapi(name);
}

export function paged<T>(items: T[], total: number, q: PageQuery) {
  return { items, total, page: q.page, limit: q.limit, pages: Math.ceil(total / q.limit) };
}

export function offsetOf(q: PageQuery): number {
  return (q.page - 1) * q.limit;
}
