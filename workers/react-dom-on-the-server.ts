/**
 * What the Worker gets for `import … from "react-dom"` (wrangler.toml [alias]; the integration
 * suite's Vite config has the same alias).
 *
 * React 18's `react-dom` is the browser's DOM renderer: 127 KiB minified, of which a server render
 * uses nothing. Libraries import it on the server only for functions that run in the browser after
 * hydration (Radix's portals, flushSync in event handlers, React Router's view transitions); the
 * page itself is rendered by `react-dom/server`'s streaming renderer. React 19 made the same split.
 *
 * Each export keeps the meaning it has before any root exists: flushSync and batchedUpdates just
 * run the callback. A portal cannot be rendered on the server (React's server renderer refuses
 * one too), so asking for one is a bug and says so.
 */

/** No root to flush on the server: run the update and return its result, as react-dom does then. */
export function flushSync<Result>(update: () => Result): Result {
  return update();
}

export function unstable_batchedUpdates<Argument, Result>(
  update: (argument: Argument) => Result,
  argument: Argument,
): Result {
  return update(argument);
}

export function createPortal(): never {
  throw new Error("createPortal was called during a server render; portals render only in the browser.");
}

export const version = "18.3.1";
