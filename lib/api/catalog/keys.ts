/** Query keys of the foundation catalog (base models to fine-tune). */

export const CATALOG_PATH = "/api/v1/foundation-catalog";
export const BASE_MODEL_PATH = "/api/v1/foundation-catalog/{base_model_id}";
