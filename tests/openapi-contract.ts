/**
 * The API's OpenAPI document as a test oracle: finds the operation a request reached (method and
 * templated path) and checks a response against what the document declares for it (status code,
 * content type, and for JSON bodies the schema, with Ajv). Built once per test process from the
 * document the app serves.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { createApp, OPENAPI_INFO } from "@/lib/server/app";
import { openApiDocument } from "@/lib/server/http/openapi";

export interface MediaObject {
  schema?: unknown;
}
export interface ResponseObject {
  description?: string;
  content?: Record<string, MediaObject>;
}
export interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
}
export interface OperationObject {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: ParameterObject[];
  requestBody?: { content?: Record<string, MediaObject> };
  responses: Record<string, ResponseObject>;
}
export interface OpenApiDoc {
  openapi: string;
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, unknown> };
}

export interface Operation {
  method: string;
  /** The templated path, as in the document: `/api/v1/training/jobs/{job_id}`. */
  path: string;
  op: OperationObject;
  pattern: RegExp;
  /** Number of templated segments (a literal match wins over a templated one). */
  params: number;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

/** OpenAPI formats that JSON Schema does not know: annotations only. */
const OPENAPI_FORMATS = ["int32", "int64", "float", "double", "byte", "binary", "password"];

interface Contract {
  doc: OpenApiDoc;
  ajv: Ajv2020;
  operations: Operation[];
  validators: Map<string, ValidateFunction>;
}

/** Something that can describe itself: the app, or a test's app with extra routes mounted. */
export interface DocumentedApp {
  openAPIRegistry: { definitions: unknown[] };
}

let defaultContract: Contract | undefined;
const contracts = new WeakMap<object, { definitions: number; contract: Contract }>();

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function pathPattern(template: string): RegExp {
  const parts = template.split(/(\{[^}]+\})/).map((p) => (p.startsWith("{") ? "[^/]+" : escapeRegExp(p)));
  return new RegExp(`^${parts.join("")}$`);
}

/**
 * The document of `app` (default: the app as createApp builds it), its operations and an Ajv
 * instance holding it; built on first use, and again when routes were mounted since.
 */
export function openApiContract(app?: object): Contract {
  if (!app || !("openAPIRegistry" in app)) {
    defaultContract ??= buildContract(openApiDocument(createApp(), OPENAPI_INFO));
    return defaultContract;
  }
  const definitions = (app as DocumentedApp).openAPIRegistry.definitions.length;
  const cached = contracts.get(app);
  if (cached?.definitions === definitions) return cached.contract;
  const contract = buildContract(openApiDocument(app as Parameters<typeof openApiDocument>[0], OPENAPI_INFO));
  contracts.set(app, { definitions, contract });
  return contract;
}

function buildContract(document: unknown): Contract {
  const doc = JSON.parse(JSON.stringify(document)) as OpenApiDoc;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  for (const f of OPENAPI_FORMATS) ajv.addFormat(f, true);
  ajv.addSchema(doc as object, "openapi.json");
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method)) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        op,
        pattern: pathPattern(path),
        params: (path.match(/\{/g) ?? []).length,
      });
    }
  }
  operations.sort((a, b) => a.params - b.params);
  return { doc, ajv, operations, validators: new Map() };
}

/** The documented operation a request reaches, or undefined. */
export function findOperation(method: string, url: string, app?: object): Operation | undefined {
  const path = new URL(url, "http://localhost").pathname;
  const m = method.toUpperCase();
  return openApiContract(app).operations.find((o) => o.method === m && o.pattern.test(path));
}

function pointerPart(s: string): string {
  return encodeURIComponent(s.replaceAll("~", "~0").replaceAll("/", "~1"));
}

/** A validator for the schema at a JSON pointer (given as unescaped parts) of the app's document. */
export function validatorAt(parts: string[], app?: object): ValidateFunction {
  const c = openApiContract(app);
  const pointer = parts.map(pointerPart).join("/");
  let v = c.validators.get(pointer);
  if (!v) {
    v = c.ajv.compile({ $ref: `openapi.json#/${pointer}` });
    c.validators.set(pointer, v);
  }
  return v;
}

function mediaMatches(declared: string, actual: string): boolean {
  if (declared === actual || declared === "*/*") return true;
  if (declared.endsWith("/*")) return actual.startsWith(declared.slice(0, -1));
  return false;
}

function isJson(mediaType: string): boolean {
  return mediaType === "application/json" || mediaType.endsWith("+json");
}

function ajvErrors(v: ValidateFunction): string {
  return (v.errors ?? [])
    .slice(0, 8)
    .map((e) => `  ${e.instancePath || "(body)"} ${e.message ?? ""} ${JSON.stringify(e.params)}`)
    .join("\n");
}

export interface CheckedResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/**
 * Throws unless the response is one the document declares for this request: a documented status
 * code of the operation, a declared content type, and a JSON body matching its schema. Requests to
 * no documented operation may only answer a problem (404/405) matching the Problem schema.
 */
export function assertMatchesDocument(method: string, url: string, r: CheckedResponse, app?: object): void {
  const op = findOperation(method, url, app);
  const contentType = (r.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const where = op
    ? `${op.method} ${op.path} (${op.op.operationId ?? "no operationId"})`
    : `${method.toUpperCase()} ${url}`;
  const fail = (why: string): never => {
    throw new Error(
      `Response does not match the OpenAPI document: ${where} → ${r.status} ${contentType}\n${why}\n` +
        `body: ${r.text.slice(0, 500)}`,
    );
  };
  if (!op) {
    if (new URL(url, "http://localhost").pathname === "/api/v1/openapi.json") return;
    if (r.status !== 404 && r.status !== 405) fail("no documented operation for this method and path");
    if (contentType !== "application/problem+json") fail("an unknown route must answer problem+json");
    const v = validatorAt(["components", "schemas", "Problem"], app);
    if (!v(r.json)) fail(`the body is not a Problem:\n${ajvErrors(v)}`);
    return;
  }
  const responses = op.op.responses;
  const statusKey = [String(r.status), `${String(r.status)[0]}XX`, "default"].find((k) => responses[k]);
  if (!statusKey)
    fail(`status ${r.status} is not documented (documented: ${Object.keys(responses).join(", ")})`);
  const declared = responses[statusKey as string];
  const content = declared.content ?? {};
  const mediaTypes = Object.keys(content);
  if (mediaTypes.length === 0) {
    if (r.text.length > 0) fail("the document declares no body for this status");
    return;
  }
  const mediaType = mediaTypes.find((m) => mediaMatches(m, contentType));
  if (!mediaType) fail(`content type not declared (declared: ${mediaTypes.join(", ")})`);
  const media = content[mediaType as string];
  // Bodies are checked against a schema when the document declares JSON (a wildcard declares bytes).
  if (!isJson(mediaType as string) || !isJson(contentType) || media.schema === undefined) return;
  const schemaAt = ["paths", op.path, op.method.toLowerCase(), "responses", statusKey as string];
  const v = validatorAt([...schemaAt, "content", mediaType as string, "schema"], app);
  if (!v(r.json)) fail(`the body does not match the declared schema:\n${ajvErrors(v)}`);
}
