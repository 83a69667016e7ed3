import { useEffect, useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False during server rendering and hydration, true afterwards. Lets a component render a
 * no-JavaScript fallback first and swap it for the interactive version without a hydration mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * Marks <html data-hydrated> once React has hydrated the page, so end-to-end tests (and CSS, if ever
 * needed) can tell when client-side behaviour is live. Mount once, in the root layout.
 */
export function HydrationMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
