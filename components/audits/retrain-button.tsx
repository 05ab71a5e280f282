"use client";

import { useQueryClient } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { type FormEvent, useState } from "react";
import { ProblemAlert } from "@/components/deployments/problem-alert";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";
import { auditKeys } from "@/lib/api/audits/keys";
import { useBaseModelList } from "@/lib/api/catalog/queries";
import { $api } from "@/lib/api/client";
import { useRecipes } from "@/lib/api/training/queries";
import type { ReportWorkload } from "./types";

const TASKS: Record<ReportWorkload["task"], string[]> = {
  classification: ["classification"],
  generation: ["language_modeling"],
};

/** "Retrain with another recipe": a recipe and a base model of the workload's task start a new candidate. */
export function RetrainButton({ auditId, workload }: { auditId: string; workload: ReportWorkload }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const recipes = useRecipes(undefined, { enabled: open });
  const catalog = useBaseModelList(undefined, { enabled: open });
  const tasks = TASKS[workload.task];
  const recipeOptions = (recipes.data?.items ?? []).filter((r) =>
    workload.task === "generation"
      ? r.task === "language_modeling"
      : r.task === "classification" || r.task === "image_classification",
  );
  const baseOptions = (catalog.data?.items ?? []).filter((m) => tasks.includes(m.task));
  const [recipe, setRecipe] = useState("");
  const [base, setBase] = useState("");
  const start = $api.useMutation("post", "/api/v1/audits/{audit_id}/workloads/{workload_id}/candidates", {
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: auditKeys.reports });
      setOpen(false);
    },
  });
  const recipeId = recipe || recipeOptions[0]?.id || "";
  const baseId = base || baseOptions[0]?.id || "";
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate({
      params: { path: { audit_id: auditId, workload_id: workload.id } },
      body: { recipe_id: recipeId, base_model_id: baseId },
    });
  };
  const selectClass = "mt-1 h-9 w-full rounded-md border border-border bg-panel px-2 text-sm";
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          start.reset();
          setOpen(true);
        }}
      >
        <RefreshCw aria-hidden className="h-4 w-4" /> Retrain with another recipe
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={`Retrain ${workload.name}`}
        description="Starts a fine-tuning run on the workload's training calls; evaluate it on the held-out calls when it has finished."
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" form="retrain-form" disabled={!recipeId || !baseId || start.isPending}>
              {start.isPending ? "Starting…" : "Start candidate"}
            </Button>
          </>
        }
      >
        <form id="retrain-form" onSubmit={submit} className="space-y-3 text-sm">
          <label className="block">
            <span className="font-medium">Recipe</span>
            <select className={selectClass} value={recipeId} onChange={(e) => setRecipe(e.target.value)}>
              {recipeOptions.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
          </label>
          <label className="block">
            <span className="font-medium">Base model</span>
            <select className={selectClass} value={baseId} onChange={(e) => setBase(e.target.value)}>
              {baseOptions.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </select>
          </label>
          {start.isError ? <ProblemAlert error={start.error} /> : null}
        </form>
      </Modal>
    </>
  );
}
