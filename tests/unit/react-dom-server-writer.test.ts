import { createRequire } from "node:module";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { createElement as h, type ReactNode, Suspense } from "react";
import { describe, expect, it } from "vitest";

// The file the Worker renders with (wrangler.toml aliases "react-dom/server" to it), with
// patches/react-dom+18.3.1.patch applied: React's writer keeps a flush's HTML as one string and
// encodes it once, instead of encoding every fragment and copying it into 512-byte views.
// The package's "exports" hide these files, so they are loaded by path, as wrangler.toml does.
const require = createRequire(import.meta.url);
const reactDomFile = (name: string) =>
  fileURLToPath(new URL(`../../node_modules/react-dom/cjs/${name}`, import.meta.url));
const workerRenderer = require(
  reactDomFile("react-dom-server.browser.production.min.js"),
) as typeof import("react-dom/server");
// React's Node renderer: the same markup code with Node's own (unpatched) writer, as the reference.
const nodeRenderer = require(
  reactDomFile("react-dom-server.node.production.min.js"),
) as typeof import("react-dom/server");

/** A component that suspends until `ready` resolves, then shows `text`. */
function lateText(ready: Promise<void>, text: string) {
  let done = false;
  void ready.then(() => {
    done = true;
  });
  return function Late() {
    if (!done) throw ready;
    return h("p", { className: "late" }, text);
  };
}

const NON_ASCII_ROW = ["Grüße aus Köln ", "😀", "—"];

/** A page larger than many of React's old 512-byte views: 250 rows of `words`, then `late`. */
function page(late: ReactNode, words: string[] = NON_ASCII_ROW): ReactNode {
  const rows = Array.from({ length: 250 }, (_, index) =>
    h("li", { key: index, title: `Zoë & "Ørsted" <${index}>`, "data-index": index }, ...words, index),
  );
  return h(
    "html",
    { lang: "en" },
    h(
      "body",
      null,
      h("ul", { className: "rows" }, rows),
      h(Suspense, { fallback: h("span", null, "Loading…") }, late),
    ),
  );
}

async function readChunks(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

function text(chunks: Uint8Array[]): string {
  return Buffer.concat(chunks).toString("utf8");
}

/** React's Node renderer, waiting for everything as a crawler would (onAllReady). */
function nodeRender(node: ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = "";
    const sink = new Writable({
      write(chunk: Buffer, _encoding, next) {
        html += chunk.toString("utf8");
        next();
      },
      final(next) {
        resolve(html);
        next();
      },
    });
    const { pipe } = nodeRenderer.renderToPipeableStream(node, {
      onAllReady: () => pipe(sink),
      onError: reject,
    });
  });
}

describe("React's streaming writer in the Worker (patched)", () => {
  it("writes the same HTML as React's Node renderer, in one chunk per flush", async () => {
    // React 18's Node writer sends a full view padded with zero bytes when a 4-byte character does
    // not fit at its end, so the reference page's text is ASCII (attributes still need escaping).
    const asciiPage = () => page(h(lateText(Promise.resolve(), "late part")), ["plain words ", "and more"]);
    const stream = await workerRenderer.renderToReadableStream(asciiPage());
    await stream.allReady;
    const chunks = await readChunks(stream);

    expect(text(chunks)).toBe(await nodeRender(asciiPage()));
    expect(text(chunks).length).toBeGreaterThan(20_000);
    // Unpatched, this page arrived as dozens of 512-byte pieces.
    expect(chunks).toHaveLength(1);
  });

  it("encodes text that is not ASCII exactly", async () => {
    const stream = await workerRenderer.renderToReadableStream(
      page(h(lateText(Promise.resolve(), "Ünïcödé ✓ 🚀"))),
    );
    await stream.allReady;
    const html = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(await readChunks(stream)));

    expect(html.match(/Grüße aus Köln <!-- -->😀<!-- -->—<!-- -->\d+<\/li>/g)).toHaveLength(250);
    expect(html.match(/title="Zoë &amp; &quot;Ørsted&quot; &lt;\d+&gt;"/g)).toHaveLength(250);
    expect(html).toContain('<p class="late">Ünïcödé ✓ 🚀</p>');
    expect(html).not.toContain("\u0000");
  });

  it("streams a late Suspense boundary after the shell, never splitting a character", async () => {
    let release = () => {};
    const ready = new Promise<void>((resolve) => {
      release = resolve;
    });
    const stream = await workerRenderer.renderToReadableStream(page(h(lateText(ready, "Ünïcödé ✓ 🚀"))));
    const reader = stream.getReader();
    const shell = await reader.read();
    release();
    const rest: Uint8Array[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest.push(next.value);

    const utf8 = new TextDecoder("utf-8", { fatal: true });
    const shellHtml = utf8.decode(shell.value);
    expect(shellHtml).toContain("Loading…");
    expect(shellHtml).toContain("Grüße aus Köln <!-- -->😀<!-- -->—<!-- -->249</li>");
    expect(shellHtml).not.toContain("Ünïcödé");
    expect(rest.length).toBeGreaterThan(0);
    for (const chunk of rest) expect(() => utf8.decode(chunk)).not.toThrow();
    expect(text(rest).match(/Ünïcödé ✓ 🚀/g)).toHaveLength(1);
  });

  it("keeps two renders that flush in turn apart (the writer's buffer is shared by the module)", async () => {
    const releases: Record<string, () => void> = {};
    const render = (name: string) => {
      const ready = new Promise<void>((resolve) => {
        releases[name] = resolve;
      });
      return workerRenderer.renderToReadableStream(page(h(lateText(ready, `late part of ${name}`))));
    };
    const [first, second] = await Promise.all([render("first"), render("second")]);
    const reading = Promise.all([readChunks(first), readChunks(second)]);
    releases.second();
    await new Promise((resolve) => setTimeout(resolve, 0));
    releases.first();
    const [firstHtml, secondHtml] = (await reading).map(text);

    expect(firstHtml).toContain("late part of first");
    expect(firstHtml).not.toContain("late part of second");
    expect(secondHtml).toContain("late part of second");
    expect(secondHtml).not.toContain("late part of first");
    expect(firstHtml.match(/<ul class="rows">/g)).toHaveLength(1);
    expect(secondHtml.match(/<ul class="rows">/g)).toHaveLength(1);
  });
});
