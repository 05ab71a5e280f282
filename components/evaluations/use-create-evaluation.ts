"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { $api } from "@/lib/api/client";
import { evaluationKeys, evaluationQuery } from "@/lib/api/evaluations/keys";
import type { Evaluation } from "./types";

export function evaluationHref(id: string): string {
  return `/training/evaluations/${encodeURIComponent(id)}`;
}

/**
 * Starts an evaluation (POST /training/evaluations), writes it into the cache, refreshes the job's
 * list and opens its page, which follows it until it has finished.
 */
export function useCreateEvaluation() {
  const queryClient = useQueryClient();
  const router = useRouter();
  return $api.useMutation("post", "/api/v1/training/evaluations", {
    onSuccess: (created: Evaluation) => {
      queryClient.setQueryData(evaluationQuery(created.id).queryKey, created);
      queryClient.invalidateQueries({ queryKey: evaluationKeys.ofJob });
      router.push(evaluationHref(created.id));
    },
  });
}
