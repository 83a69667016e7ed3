import { type RefObject, useEffect, useRef } from "react";
import { toast } from "~/components/ui/toast";

type Submitting = { formData?: FormData; data?: unknown };

/** The settings forms' answers: `{ ok: true }`, or a conform reply that succeeded. */
const savedByDefault = (data: unknown) => {
  const answer = data as { ok?: unknown; result?: { status?: unknown } | null } | null;
  return answer?.ok === true || (answer?.ok === undefined && answer?.result?.status === "success");
};

/**
 * Keeps what a fetcher form sent in this tab's sessionStorage until its answer arrives, and puts it
 * back the next time the form is shown if none did: a save that ended on the login page (the session
 * had ended in another tab) or on the error screen loses nothing typed. Passwords are never kept.
 *
 * Controlled fields come back through their `setters` (as useTypedBeforeHydration's), each called
 * with what was sent for it (nothing, for a box left unchecked); the others are written into the
 * form's fields.
 *
 * What is typed and not saved is not kept, so leaving the page (a reload, closing the tab, another
 * site) with such edits asks first. A form kept as it is typed (`keptUntilAnswered`) loses nothing.
 */
export function useUnsentChanges(
  key: string,
  formRef: RefObject<HTMLFormElement | null>,
  fetcher: Submitting,
  setters: Record<string, (values: string[]) => void> = {},
  { keptUntilAnswered = false }: { keptUntilAnswered?: boolean } = {},
) {
  const storageKey = `unsent:${key}`;
  // What the form held before the person's first touch, then as last saved: edits are what differs.
  const saved = useRef<string | null>(null);
  const lastSent = useRef<FormData | null>(null);

  // Taken at the first touch (a press, a key, focus), not when the form is shown, so what the page
  // fills in by itself (a suggested time zone) is not an edit. What is put back below is one: the
  // form as shown, before it, is the measure then.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form is first shown
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    if (read(storageKey)) {
      saved.current = fingerprint(new FormData(form));
      return;
    }
    const onFirstTouch = () => {
      if (saved.current === null) saved.current = fingerprint(new FormData(form));
      for (const type of FIRST_TOUCH) form.removeEventListener(type, onFirstTouch, true);
    };
    for (const type of FIRST_TOUCH) form.addEventListener(type, onFirstTouch, true);
    return () => {
      for (const type of FIRST_TOUCH) form.removeEventListener(type, onFirstTouch, true);
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form is first shown
  useEffect(() => {
    const form = formRef.current;
    const saved = read(storageKey);
    if (!form || !saved) return;
    // A form kept as it is typed (`formData` follows every change) keeps it until it is answered.
    if (!keptUntilAnswered) write(storageKey, null);
    const values = new Map<string, string[]>();
    for (const [name, value] of saved) values.set(name, [...(values.get(name) ?? []), value]);
    // A controlled field absent from what was sent had no value: an unchecked box, no chip chosen.
    for (const [name, set] of Object.entries(setters)) set(values.get(name) ?? []);
    for (const [name, list] of values) {
      if (setters[name]) continue;
      const field = form.elements.namedItem(name);
      if (
        field instanceof HTMLInputElement ||
        field instanceof HTMLTextAreaElement ||
        field instanceof HTMLSelectElement
      ) {
        if (field.type === "hidden" || field.type === "password" || field.type === "file") continue;
        if (field instanceof HTMLInputElement && field.type === "checkbox") field.checked = true;
        else field.value = list[0] ?? "";
        // Tells the form library (and any counter) that the field changed.
        field.dispatchEvent(new Event("input", { bubbles: true }));
      }
    }
    toast({
      title: "Your changes are back",
      description: "They were not saved. Check them and save again.",
    });
  }, []);

  useEffect(() => {
    if (!fetcher.formData) return;
    lastSent.current = fetcher.formData;
    write(storageKey, keptEntries(fetcher.formData));
  }, [fetcher.formData, storageKey]);

  useEffect(() => {
    if (fetcher.data === undefined) return;
    write(storageKey, null);
    if (lastSent.current && savedByDefault(fetcher.data)) saved.current = fingerprint(lastSent.current);
  }, [fetcher.data, storageKey]);

  useEffect(() => {
    if (keptUntilAnswered) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      const form = formRef.current;
      if (!form || saved.current === null || fingerprint(new FormData(form)) === saved.current) return;
      event.preventDefault();
      // Chromium before 119 and Safari ask only when this is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [formRef, keptUntilAnswered]);
}

const FIRST_TOUCH = ["pointerdown", "keydown", "focusin"] as const;

/** What is kept of a form: its text fields, never a password, nor the intent (the button's). */
function keptEntries(formData: FormData): [string, string][] {
  const entries: [string, string][] = [];
  for (const [name, value] of formData) {
    if (typeof value === "string" && name !== "intent" && !/password/i.test(name))
      entries.push([name, value]);
  }
  return entries;
}

const fingerprint = (formData: FormData) => JSON.stringify(keptEntries(formData));

function read(key: string): [string, string][] | null {
  try {
    const text = window.sessionStorage.getItem(key);
    const parsed: unknown = text ? JSON.parse(text) : null;
    return Array.isArray(parsed) ? (parsed as [string, string][]) : null;
  } catch {
    return null;
  }
}

function write(key: string, entries: [string, string][] | null) {
  try {
    if (entries) window.sessionStorage.setItem(key, JSON.stringify(entries));
    else window.sessionStorage.removeItem(key);
  } catch {
    // Storage full or switched off (private browsing): the form still works, without the safety net.
  }
}
