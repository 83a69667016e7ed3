import { describe, expect, it } from "vitest";
import { PARKED_ENTRY_CHUNK, PARKED_MODULE_TYPE, PARKED_PRELOAD_ATTRIBUTE } from "~/lib/boot-after-paint";
import { parkModuleScripts } from "~/lib/boot-after-paint.server";

// The tail of a page as Remix's <Scripts> and React write it, with text around it that must pass
// through untouched (non-ASCII, a stylesheet link, a JSON-LD block, a classic inline script).
const rendered = [
  '<!DOCTYPE html><html lang="en"><head><link rel="stylesheet" href="/build/_assets/app.css"/>',
  '<script type="application/ld+json">{"name":"Zoë Ødegård — café"}</script></head><body><p>Prix: 5 €</p>',
  '<link rel="modulepreload" href="/build/entry.client-A1.js"/>',
  '<link rel="modulepreload" href="/build/_shared/chunk-B2.js"/>',
  '<script nonce="n0nce">window.__remixContext = {"state":{"loaderData":{"k":"a\\u003cb"}}};</script>',
  '<script nonce="n0nce" type="module" async="">import * as route0 from "/build/root-C3.js";',
  'window.__remixRouteModules = {"root":route0};\nimport("/build/entry.client-A1.js");</script>',
  '<script src="/build/other.js" type="module"></script></body></html>',
].join("");

const parked = rendered
  .replaceAll('<link rel="modulepreload"', `<link ${PARKED_PRELOAD_ATTRIBUTE}=""`)
  .replace(
    '<script nonce="n0nce" type="module" async="">',
    `<script nonce="n0nce" type="${PARKED_MODULE_TYPE}" async="">`,
  );

async function throughPark(chunks: Uint8Array[], entryChunks: string[] = []): Promise<string> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(parkModuleScripts(source, entryChunks)).text();
}

describe("parking Remix's module preloads and boot script in the HTML stream", () => {
  it("parks exactly the module preloads and the inline module script", async () => {
    const bytes = new TextEncoder().encode(rendered);
    expect(await throughPark([bytes])).toBe(parked);
    // Nothing a browser would fetch or run as a module at parse time is left, apart from a script
    // with a src (not Remix's boot script).
    expect(parked).not.toContain('rel="modulepreload"');
    expect(parked.match(/type="module"/g)).toHaveLength(1);
  });

  it("marks the preloads of the client entry's chunks, and only those", async () => {
    const html = await throughPark([new TextEncoder().encode(rendered)], ["/build/_shared/chunk-B2.js"]);
    expect(html).toBe(
      parked.replace(
        `<link ${PARKED_PRELOAD_ATTRIBUTE}="" href="/build/_shared/chunk-B2.js"/>`,
        `<link ${PARKED_PRELOAD_ATTRIBUTE}="${PARKED_ENTRY_CHUNK}" href="/build/_shared/chunk-B2.js"/>`,
      ),
    );
    expect(html).toContain(`<link ${PARKED_PRELOAD_ATTRIBUTE}="" href="/build/entry.client-A1.js"/>`);
  });

  it("gives the same page however the stream is cut, mid-tag and mid-character included", async () => {
    const bytes = new TextEncoder().encode(rendered);
    for (let cut = 1; cut < bytes.length; cut++) {
      const html = await throughPark([bytes.slice(0, cut), bytes.slice(cut)]);
      expect(html, `cut at byte ${cut}`).toBe(parked);
    }
    const oneByteAtATime = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(await throughPark(oneByteAtATime)).toBe(parked);
  });

  it("stops React's render when the reader goes away", async () => {
    let cancelled: unknown = null;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode("<p>more</p>"));
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const reader = parkModuleScripts(source).getReader();
    await reader.read();
    await reader.cancel("tab closed");
    expect(cancelled).toBe("tab closed");
  });
});
