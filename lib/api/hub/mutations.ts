/** The hub's actions as mutation hooks (call `mutateAsync`: it resolves the body or throws the problem). */
import { $api } from "@/lib/api/client";
import { HUB_MODEL_PATH, HUB_MODELS_PATH, HUB_STAR_PATH } from "./keys";

export function usePublishModel() {
  return $api.useMutation("post", HUB_MODELS_PATH);
}

export function useUpdateHubModel() {
  return $api.useMutation("put", HUB_MODEL_PATH);
}

export function useDeleteHubModel() {
  return $api.useMutation("delete", HUB_MODEL_PATH);
}

export function useStar() {
  return $api.useMutation("post", HUB_STAR_PATH);
}

export function useUnstar() {
  return $api.useMutation("delete", HUB_STAR_PATH);
}

export function useForkModel() {
  return $api.useMutation("post", "/api/v1/hub/models/{model_id}/fork");
}

/** A new project with the model's architecture. */
export function useUseInStudio() {
  return $api.useMutation("post", "/api/v1/hub/models/{model_id}/use-in-studio");
}

export function useReviewModel() {
  return $api.useMutation("post", "/api/v1/hub/models/{model_id}/reviews");
}

/** A signed download link (one file, or every file as a ZIP). */
export function useDownloadLink() {
  return $api.useMutation("post", "/api/v1/hub/models/{model_id}/download");
}
