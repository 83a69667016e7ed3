import { PARKED_ENTRY_CHUNK, PARKED_MODULE_TYPE, PARKED_PRELOAD_ATTRIBUTE } from "./boot-after-paint";

const TAG = /<(?:link|script)\b[^>]*>/g;
const MODULE_PRELOAD = /\srel="modulepreload"/;
const MODULE_TYPE = /\stype="module"/;
const HREF = /\shref="([^"]*)"/;

/**
 * One tag as the browser should first see it: module preloads and inline module scripts parked, and
 * the preloads of the client entry's chunks marked as such.
 */
function parkTag(tag: string, entryChunks: ReadonlySet<string>): string {
  if (tag.startsWith("<link")) {
    if (!MODULE_PRELOAD.test(tag)) return tag;
    const group = entryChunks.has(HREF.exec(tag)?.[1] ?? "") ? PARKED_ENTRY_CHUNK : "";
    return tag.replace(MODULE_PRELOAD, ` ${PARKED_PRELOAD_ATTRIBUTE}="${group}"`);
  }
  return MODULE_TYPE.test(tag) && !/\ssrc=/.test(tag)
    ? tag.replace(MODULE_TYPE, ` type="${PARKED_MODULE_TYPE}"`)
    : tag;
}

/**
 * React's HTML stream with the page's module preloads and boot module script parked (see
 * ./boot-after-paint): the browser neither fetches nor runs them until the <head> script puts them
 * back after the first paint. A tag split between two chunks is held back until its end arrives; React
 * escapes `<` and `>` inside attribute values, so the first `>` after a tag's `<` ends it. A reader
 * that goes away (a closed tab) cancels React's render. `entryChunks` are the chunks the client entry
 * imports (the build manifest's `entry.imports`), which the browser runs first.
 */
export function parkModuleScripts(
  html: ReadableStream<Uint8Array>,
  entryChunks: readonly string[] = [],
): ReadableStream<Uint8Array> {
  const entrySet = new Set(entryChunks);
  const park = (tag: string) => parkTag(tag, entrySet);
  const reader = html.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let held = "";
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          const rest = held + decoder.decode();
          if (rest) controller.enqueue(encoder.encode(rest.replace(TAG, park)));
          controller.close();
          return;
        }
        const text = held + decoder.decode(value, { stream: true });
        const lastOpen = text.lastIndexOf("<");
        const end = lastOpen !== -1 && text.indexOf(">", lastOpen) === -1 ? lastOpen : text.length;
        held = text.slice(end);
        if (end > 0) {
          controller.enqueue(encoder.encode(text.slice(0, end).replace(TAG, park)));
          return;
        }
      }
    },
    cancel(reason) {
      return reader.cancel(reason).catch(() => {});
    },
  });
}
