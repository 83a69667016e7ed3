import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * For a screen that waits on someone else (an answer, a new question): reloads the page's data every
 * `everyMs` while the tab is visible, and at once when the person comes back to the tab.
 */
export function useRefreshWhileVisible(everyMs: number, enabled = true) {
  const revalidator = useRevalidator();
  const revalidatorRef = useRef(revalidator);
  revalidatorRef.current = revalidator;
  useEffect(() => {
    if (!enabled) return;
    const refresh = () => {
      const { state, revalidate } = revalidatorRef.current;
      if (document.visibilityState === "visible" && state === "idle") revalidate();
    };
    const timer = setInterval(refresh, everyMs);
    document.addEventListener("visibilitychange", refresh);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", refresh);
    };
  }, [everyMs, enabled]);
}
