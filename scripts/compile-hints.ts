/**
 * Marks the chunks the client entry imports (React, React DOM, Remix) for eager compilation (part of
 * `npm run build`, after Remix's): V8's explicit compile hint, a `//# allFunctionsCalledOnLoad`
 * comment on the first line (https://v8.dev/blog/explicit-compile-hints), has Chrome compile every
 * function of the file while it streams the download in the background.
 *
 * Without it, V8 compiles a function on the main thread the first time it is called, and every page
 * calls most of these at once while it hydrates: React DOM's CommonJS body alone is one function of
 * about 130 KB, compiled in the middle of the page's first long task. On a phone-class CPU that was
 * tens of milliseconds of blocked input per page. Only the entry's chunks are marked: every page runs
 * nearly all of them, while a page's own chunks hold handlers and branches it may never call.
 * Browsers other than Chrome read the line as a comment.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readBrowserManifest } from "./lib/browser-manifest";

const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

const publicDir = join(dirname(fileURLToPath(import.meta.url)), "..", "public");
const { entry } = readBrowserManifest(publicDir);
for (const chunk of entry.imports) {
  const file = join(publicDir, chunk);
  const source = readFileSync(file, "utf8");
  if (!source.startsWith(COMPILE_HINT)) writeFileSync(file, COMPILE_HINT + source);
}
console.log(
  `[compile-hints] marked ${entry.imports.length} chunks of the client entry for eager compilation`,
);
