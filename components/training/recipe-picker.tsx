"use client";

import type { components } from "@/lib/api/schema";
import { useRecipes } from "@/lib/api/training/queries";

export type TrainingRecipe = components["schemas"]["TrainingRecipe"];

/**
 * Recipes that fit the project's model: picking one fills the configuration (never the graph: the
 * editor owns it). Recipes for other tasks are not offered.
 */
export function RecipePicker({
  projectId,
  value,
  onPick,
}: {
  projectId: string;
  value: string | null;
  onPick: (recipe: TrainingRecipe | null) => void;
}) {
  const recipes = useRecipes({ project_id: projectId });
  const fitting = recipes.data?.items.filter((r) => r.fits_project) ?? [];
  if (fitting.length === 0) return null;
  const picked = fitting.find((r) => r.id === value) ?? null;
  return (
    <div>
      <label htmlFor="train-recipe" className="mb-1 block text-sm font-medium">
        Recipe
      </label>
      <select
        id="train-recipe"
        className="h-9 w-full rounded-md border border-border bg-panel px-2 text-sm"
        value={value ?? ""}
        onChange={(e) => onPick(fitting.find((r) => r.id === e.target.value) ?? null)}
      >
        <option value="">None: the project&apos;s training settings</option>
        {fitting.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name}
          </option>
        ))}
      </select>
      <p className="mt-1 text-xs text-muted">
        {picked ? picked.description : "A preset fills the configuration below; your diagram stays as it is."}
      </p>
    </div>
  );
}
