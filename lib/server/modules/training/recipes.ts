/** GET /training/recipes: the curated presets of lib/ml/recipes.ts, with whether each fits a project. */
import type { z } from "@hono/zod-openapi";
import { graphTask, RECIPES, recipeFits } from "../../../ml/recipes";
import type { Db } from "../../db/client";
import type { UserRow } from "../../db/schema";
import { architectureOf } from "./architecture";
import type { recipeListSchema } from "./training.schemas";

export async function listRecipes(
  db: Db,
  user: UserRow,
  projectId: string | undefined,
): Promise<z.infer<typeof recipeListSchema>> {
  const task = projectId
    ? graphTask((await architectureOf(db, user.id, projectId, undefined)).graph)
    : undefined;
  return {
    items: RECIPES.map((r) => ({
      ...r,
      fits_project: task === undefined ? null : recipeFits(r, task),
    })),
  };
}
