/**
 * Paths of the hub's actions. The hub's pages are rendered on the server (lib/api/server-client.ts),
 * so there is no client cache to key: after a change the page is refreshed (router.refresh).
 */

export const HUB_MODELS_PATH = "/api/v1/hub/models";
export const HUB_MODEL_PATH = "/api/v1/hub/models/{model_id}";
export const HUB_STAR_PATH = "/api/v1/hub/models/{model_id}/star";
