import { type RefObject, useLayoutEffect } from "react";

/**
 * When this element leaves the page while it holds focus (a row that a change just filtered out of
 * its list), focus goes to the element `fallbackId` (give it tabIndex -1) instead of the page body.
 */
export function useFocusFallback(ref: RefObject<HTMLElement | null>, fallbackId: string) {
  useLayoutEffect(() => {
    const element = ref.current;
    // A layout effect's cleanup runs before React takes the element out, so focus is still in it.
    return () => {
      if (!element?.contains(document.activeElement)) return;
      requestAnimationFrame(() => document.getElementById(fallbackId)?.focus());
    };
  }, [ref, fallbackId]);
}
