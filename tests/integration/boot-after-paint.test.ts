/**
 * Pages ask for no JavaScript while they render: the module preloads and the boot module script
 * that Remix writes are parked (~/lib/boot-after-paint), and the <head> script that puts them back
 * after the first paint is there, under the page's nonce. The browser side (the scripts start after
 * the first contentful paint and hydration succeeds) is tests/e2e/smoke.test.ts.
 */
import * as build from "virtual:remix-server-build";
import { beforeAll, describe, expect, it } from "vitest";
import {
  bootAfterPaintScript,
  PARKED_ENTRY_CHUNK,
  PARKED_MODULE_TYPE,
  PARKED_PRELOAD_ATTRIBUTE,
} from "~/lib/boot-after-paint";
import { DEMO_ACCOUNTS } from "~/lib/demo-accounts";
import { get, signIn } from "./support/accounts";
import { seedDemoMarketplace } from "./support/demo-seed";

let clientCookie = "";

beforeAll(async () => {
  await seedDemoMarketplace();
  clientCookie = await signIn(DEMO_ACCOUNTS.client.username, DEMO_ACCOUNTS.client.password);
});

/** What a browser's preload scanner and parser would fetch or run as modules straight away. */
function modulesStartedByParsing(html: string) {
  return {
    preloads: [...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*>/gi)].map(([tag]) => tag),
    moduleScripts: [...html.matchAll(/<script\b[^>]*\btype="module"[^>]*>/gi)].map(([tag]) => tag),
  };
}

function parked(html: string) {
  const links = [...html.matchAll(new RegExp(`<link\\b[^>]*\\b${PARKED_PRELOAD_ATTRIBUTE}\\b[^>]*>`, "gi"))];
  const scripts = [
    ...html.matchAll(
      new RegExp(`<script\\b([^>]*)\\btype="${PARKED_MODULE_TYPE}"([^>]*)>([\\s\\S]*?)</script>`, "gi"),
    ),
  ];
  return {
    hrefs: links.map(([tag]) => /\bhref="([^"]+)"/.exec(tag)?.[1]),
    entryChunks: links
      .filter(([tag]) => tag.includes(`${PARKED_PRELOAD_ATTRIBUTE}="${PARKED_ENTRY_CHUNK}"`))
      .map(([tag]) => /\bhref="([^"]+)"/.exec(tag)?.[1]),
    scripts: scripts.map(([, before, after, text]) => ({ attributes: `${before} ${after}`, text })),
  };
}

describe("the app's JavaScript waits for the first paint", () => {
  for (const [who, path, cookie] of [
    ["a visitor", "/experts", () => ""],
    ["a visitor", "/auth", () => ""],
    ["the demo client", "/dashboard", () => clientCookie],
  ] as const) {
    it(`parks the module preloads and the boot script of ${path} for ${who}`, async () => {
      const response = await get(path, cookie());
      expect(response.status).toBe(200);
      const html = await response.text();

      expect(modulesStartedByParsing(html)).toEqual({ preloads: [], moduleScripts: [] });
      const { hrefs, entryChunks, scripts } = parked(html);
      // Remix's full list survives: the client entry, the root and this page's route module.
      expect(hrefs.some((href) => /^\/build\/entry\.client-[\w-]+\.js$/.test(href ?? ""))).toBe(true);
      expect(hrefs.some((href) => /^\/build\/root-[\w-]+\.js$/.test(href ?? ""))).toBe(true);
      expect(hrefs.length).toBeGreaterThan(3);
      // The client entry's chunks are marked, so the browser runs them first.
      expect(entryChunks).toEqual(build.assets.entry.imports);
      // One boot script, unchanged apart from its type: it imports the routes, then the client entry.
      expect(scripts).toHaveLength(1);
      expect(scripts[0].text).toMatch(/import \* as route0 from "\/build\/root-[\w-]+\.js"/);
      expect(scripts[0].text).toMatch(/import\("\/build\/entry\.client-[\w-]+\.js"\)/);

      // The <head> script that brings them back runs under the same nonce as the boot script.
      const nonce = /nonce="([^"]+)"/.exec(scripts[0].attributes)?.[1];
      expect(nonce).toBeTruthy();
      const head = html.slice(0, html.indexOf("</head>"));
      expect(head).toContain(`<script nonce="${nonce}">`);
      expect(head).toContain(bootAfterPaintScript);
    });
  }
});
