/** Writes the API's OpenAPI document to openapi.json (input of the generated client and the linter). */
import { writeFileSync } from "node:fs";
import { createApp, OPENAPI_INFO } from "../lib/server/app";
import { openApiDocument } from "../lib/server/http/openapi";

const doc = openApiDocument(createApp(), OPENAPI_INFO);
writeFileSync(process.argv[2] ?? "openapi.json", `${JSON.stringify(doc, null, 2)}\n`);
console.log(`openapi.json: ${Object.keys(doc.paths ?? {}).length} paths`);
