import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * For a screen that waits on someone else (an answer, a new question): reloads the page's data every
 * `everyMs` while the tab is visible, at once when the person comes back to the tab, and when the
 * connection comes back. Never while the browser knows it is offline: the reload would fail and
 * replace the page (and whatever is being typed on it) with the error screen.
 */
export function useRefreshWhileVisible(everyMs: number, enabled = true) {
  const revalidator = useRevalidator();
  const revalidatorRef = useRef(revalidator);
  revalidatorRef.current = revalidator;
  useEffect(() => {
    if (!enabled) return;
    const refresh = () => {
      const { state, revalidate } = revalidatorRef.current;
      if (document.visibilityState === "visible" && state === "idle" && navigator.onLine) revalidate();
    };
    const timer = setInterval(refresh, everyMs);
    document.addEventListener("visibilitychange", refresh);
    window.addEventListener("online", refresh);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", refresh);
      window.removeEventListener("online", refresh);
    };
  }, [everyMs, enabled]);
}
