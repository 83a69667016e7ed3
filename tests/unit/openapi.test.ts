import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { API_ROUTES, buildOpenApiDocument, routeFileToPath, UNDOCUMENTED_API_ROUTES } from "~/lib/openapi";

const ROUTES = fileURLToPath(new URL("../../app/routes", import.meta.url));
const BUILT_DOCUMENT = fileURLToPath(new URL("../../public/api/openapi.json", import.meta.url));

/** Every API route module on disk: `api.*.ts` files, and `api.*` folders (their route.tsx / route.ts). */
function apiRouteFiles(): string[] {
  return readdirSync(ROUTES, { withFileTypes: true })
    .filter((entry) => entry.name.startsWith("api."))
    .map((entry) => {
      if (entry.isFile()) return entry.name;
      const inner = readdirSync(`${ROUTES}/${entry.name}`).find((name) => /^route\.tsx?$/.test(name));
      return `${entry.name}/${inner ?? "route.ts"}`;
    })
    .sort();
}

const source = (file: string) => readFileSync(`${ROUTES}/${file}`, "utf8");

describe("the OpenAPI route list", () => {
  it("lists every API route module that exists, and nothing more", () => {
    const listed = [
      ...API_ROUTES.flatMap((route) => (route.file ? [route.file] : [])),
      ...Object.keys(UNDOCUMENTED_API_ROUTES),
    ];
    expect(listed.sort()).toEqual(apiRouteFiles());
  });

  it("gives each route the path Remix serves its file at", () => {
    for (const route of API_ROUTES) {
      if (route.file) expect(route.path, route.file).toBe(routeFileToPath(route.file));
    }
  });

  it("documents a GET only where the module has a loader, and other methods only where it has an action", () => {
    for (const route of API_ROUTES) {
      if (!route.file) continue;
      const code = source(route.file);
      for (const op of route.operations) {
        const handler = op.method === "get" ? "loader" : "action";
        expect(code, `${op.method.toUpperCase()} ${route.path}`).toMatch(
          new RegExp(`export (async )?(function|const) ${handler}\\b`),
        );
      }
    }
  });

  it("maps flat-route file names to URL paths", () => {
    expect(routeFileToPath("api.experts.$id.upload.$kind.ts")).toBe("/api/experts/{id}/upload/{kind}");
    expect(routeFileToPath("api.openapi[.]json.ts")).toBe("/api/openapi.json");
    expect(routeFileToPath("api.users._index.ts")).toBe("/api/users");
    expect(routeFileToPath("api.thing/route.tsx")).toBe("/api/thing");
  });
});

describe("the OpenAPI document", () => {
  const document = buildOpenApiDocument("https://example.test");

  it("is what npm run build wrote to public/api/openapi.json (served at /api/openapi.json)", () => {
    expect(existsSync(BUILT_DOCUMENT), "run `npm run build` first (npm test does)").toBe(true);
    const built = JSON.parse(readFileSync(BUILT_DOCUMENT, "utf8"));
    expect(built).toEqual(buildOpenApiDocument("/"));
    expect(built.servers).toEqual([{ url: "/" }]);
  });

  it("is OpenAPI 3.1 with one path per route", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths).sort()).toEqual(API_ROUTES.map((route) => route.path).sort());
  });

  it("generates request bodies from the zod schemas, with their limits", () => {
    const login = document.paths["/api/auth/login"].post as unknown as {
      requestBody: { content: { "application/json": { schema: { required: string[] } } } };
    };
    expect(login.requestBody.content["application/json"].schema.required).toEqual(["username", "password"]);
    const pricing = JSON.stringify(document.paths["/api/experts/{id}"].patch);
    // The settings form's minimums, in cents.
    expect(pricing).toContain('"questionRate":{"type":"integer","minimum":500');
    expect(pricing).toContain('"sessionPrice":{"type":"integer","minimum":1000');
    const change = document.paths["/api/auth/change-password"].post as unknown as {
      requestBody: { content: { "application/json": { schema: { required: string[] } } } };
    };
    expect(change.requestBody.content["application/json"].schema.required).toEqual([
      "currentPassword",
      "newPassword",
    ]);
  });

  it("says which calls need the session cookie", () => {
    expect(document.paths["/api/user/favorites"].get).toMatchObject({ security: [{ sessionCookie: [] }] });
    expect(document.paths["/api/categories"].get).not.toHaveProperty("security");
  });
});
