/**
 * The projects area's limits as plain values: services read them without loading the OpenAPI
 * schemas (projects.schemas.ts re-exports them for the routes), so no import order of zod's OpenAPI
 * extension matters to a service.
 */
export const PROJECT_NAME_MAX = 120;
