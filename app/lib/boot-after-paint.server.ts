import { PARKED_MODULE_TYPE, PARKED_PRELOAD_ATTRIBUTE } from "./boot-after-paint";

const TAG = /<(?:link|script)\b[^>]*>/g;
const MODULE_PRELOAD = /\srel="modulepreload"/;
const MODULE_TYPE = /\stype="module"/;

/** One tag as the browser should first see it: module preloads and inline module scripts parked. */
function parkTag(tag: string): string {
  if (tag.startsWith("<link")) {
    return MODULE_PRELOAD.test(tag) ? tag.replace(MODULE_PRELOAD, ` ${PARKED_PRELOAD_ATTRIBUTE}=""`) : tag;
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
 * that goes away (a closed tab) cancels React's render.
 */
export function parkModuleScripts(html: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
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
          if (rest) controller.enqueue(encoder.encode(rest.replace(TAG, parkTag)));
          controller.close();
          return;
        }
        const text = held + decoder.decode(value, { stream: true });
        const lastOpen = text.lastIndexOf("<");
        const end = lastOpen !== -1 && text.indexOf(">", lastOpen) === -1 ? lastOpen : text.length;
        held = text.slice(end);
        if (end > 0) {
          controller.enqueue(encoder.encode(text.slice(0, end).replace(TAG, parkTag)));
          return;
        }
      }
    },
    cancel(reason) {
      return reader.cancel(reason).catch(() => {});
    },
  });
}
