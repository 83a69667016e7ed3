/**
 * Writes the JSON API's OpenAPI document to public/api/openapi.json (part of `npm run build`), where
 * Workers static assets serve it at /api/openapi.json. The server URL is relative, so the document
 * describes whichever origin served it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildOpenApiDocument } from "../app/lib/openapi";

const target = join(dirname(fileURLToPath(import.meta.url)), "..", "public", "api", "openapi.json");
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument("/"))}\n`);
console.log(`[openapi] wrote ${target}`);
