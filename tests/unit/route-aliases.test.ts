/**
 * A route that serves another route's page under a second path (/login, /register, /ask,
 * /admin/dashboard...) re-exports that route's whole module surface: without its clientAction a form
 * sent offline falls to the error screen, without its shouldRevalidate an offline submission on the
 * page reloads and fails, without its headers its caching differs.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROUTES = fileURLToPath(new URL("../../app/routes", import.meta.url));

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? routeFiles(path) : /\.tsx?$/.test(entry) ? [path] : [];
  });
}

/** The names a module exports by declaration (`export const x`, `export async function y`). */
function declaredExports(source: string): string[] {
  return [...source.matchAll(/^export (?:const|let|async function|function) (\w+)/gm)].map(
    (match) => match[1],
  );
}

function sourceOf(from: string, specifier: string): string {
  const base = resolve(from, "..", specifier);
  const file = [`${base}.tsx`, `${base}.ts`, join(base, "route.tsx")].find((candidate) => {
    try {
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
  if (!file) throw new Error(`${specifier} from ${from}: no such route module`);
  return readFileSync(file, "utf8");
}

const aliases = routeFiles(ROUTES).flatMap((file) => {
  const match = readFileSync(file, "utf8").match(/export \{([^}]*\bdefault\b[^}]*)\} from "(\.[^"]+)"/);
  return match ? [{ file, names: match[1].split(",").map((name) => name.trim()), target: match[2] }] : [];
});

describe("routes that serve another route's page", () => {
  it("exist (the check below has something to check)", () => {
    expect(aliases.map((alias) => alias.file.slice(ROUTES.length + 1)).sort()).toEqual(
      expect.arrayContaining(["admin.dashboard.tsx", "ask._index.tsx", "login.tsx", "register.tsx"]),
    );
  });

  for (const alias of aliases) {
    it(`${alias.file.slice(ROUTES.length + 1)} re-exports all of ${alias.target}`, () => {
      const exported = declaredExports(sourceOf(alias.file, alias.target));
      expect(alias.names.filter((name) => name !== "default").sort()).toEqual(exported.sort());
    });
  }
});
