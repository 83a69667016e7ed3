import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { cx } from "./cx";

/** What a toast says. Also the shape a server flash or action data carries (`id` makes it show once). */
export type ToastMessage = {
  id?: string;
  title: string;
  description?: string;
  variant?: "default" | "destructive";
  /** Milliseconds before it hides itself; defaults to 5000 (SPEC.md). */
  duration?: number;
};

export type ToastItem = ToastMessage & { id: string; open: boolean };

/** SPEC.md section 9: one toast at a time, 5000 ms, swipe threshold 50, removal delay 1,000,000 ms. */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION = 5000;
export const TOAST_SWIPE_THRESHOLD = 50;
const TOAST_REMOVE_DELAY = 1_000_000;

// A tiny store outside React so `toast()` can be called from anywhere (handlers, effects, modules).
let items: ToastItem[] = [];
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();
const EMPTY: ToastItem[] = [];
let counter = 0;

function emit() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function scheduleRemoval(id: string) {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      items = items.filter((item) => item.id !== id);
      emit();
    }, TOAST_REMOVE_DELAY),
  );
}

/** Hides a toast (or every toast when no id is given). */
export function dismissToast(id?: string) {
  items = items.map((item) => (id === undefined || item.id === id ? { ...item, open: false } : item));
  for (const item of items) if (!item.open) scheduleRemoval(item.id);
  emit();
}

/** Shows a toast; the newest replaces any other (one at a time). */
export function toast(message: ToastMessage) {
  counter += 1;
  const id = `${message.id ?? "toast"}-${counter}`;
  items = [{ ...message, id, open: true }, ...items].slice(0, TOAST_LIMIT);
  emit();
  return { id, dismiss: () => dismissToast(id) };
}

export function useToast() {
  const toasts = useSyncExternalStore(
    subscribe,
    () => items,
    () => EMPTY,
  );
  return { toasts, toast, dismiss: dismissToast };
}

/**
 * Shows a toast that came from the server (a flash cookie or action data) once per `id`.
 * Before hydration, and for visitors without JavaScript, it renders the message in place instead.
 */
export function ServerToast({
  toast: message,
  className,
}: {
  toast: ToastMessage | null | undefined;
  className?: string;
}) {
  const hydrated = useHydrated();
  const key = message ? (message.id ?? `${message.title}|${message.description ?? ""}`) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: show each server toast once, keyed by its id
  useEffect(() => {
    if (message) toast(message);
  }, [key]);
  if (hydrated || !message) return null;
  return (
    <div className={cx("flash-banner", className)} role="status">
      <div className="toast" data-variant={message.variant ?? "default"}>
        <div>
          <p className="toast__title">{message.title}</p>
          {message.description ? <p className="toast__description">{message.description}</p> : null}
        </div>
      </div>
    </div>
  );
}

// Radix Toast (and its layers) loads with the first toast, not with every page; toasts appear only
// after hydration, so the module is `.client` and the Worker's build leaves it out.
const ToastList = lazy(() => import("./toast-list.client"));

/**
 * Renders the toasts. Mount once, in the root layout. Radix announces each toast to screen readers;
 * its code is fetched when the first toast is shown.
 */
export function Toaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    if (toasts.length > 0) setNeeded(true);
  }, [toasts.length]);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastList toasts={toasts} />
    </Suspense>
  );
}
