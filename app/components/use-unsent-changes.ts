import { useRouteLoaderData } from "@remix-run/react";
import { type RefObject, useEffect, useRef } from "react";
import type { loader as rootLoader } from "~/root";
import {
  askBeforeLeaving,
  fingerprint,
  keepSent,
  measureFromFirstTouch,
  putBackUnsent,
  savedBy,
  watchEdits,
} from "./unsent-changes.client";

/** A fetcher, or the same from a page's navigation (`state` is needed for the leave warning). */
type Submitting = { formData?: FormData; data?: unknown; state?: "idle" | "submitting" | "loading" };

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
 * site, a link inside the app, a logout) with such edits asks first. A form kept as it is typed
 * (`keptUntilAnswered`) loses nothing.
 *
 * Returns whether the person has changed the form since it was last sent (or shown).
 */
export function useUnsentChanges(
  key: string,
  formRef: RefObject<HTMLFormElement | null>,
  fetcher: Submitting,
  setters: Record<string, (values: string[]) => void> = {},
  { keptUntilAnswered = false }: { keptUntilAnswered?: boolean } = {},
) {
  // What is kept belongs to the person signed in when it was sent or typed: someone else signing in
  // on the same tab never gets it back (it waits for its owner, as a session that ended does). A form
  // kept as it is typed follows its owner's signing in (the application's new account): the effect
  // that keeps it runs again under the new key, and no copy stays for the next person signed out.
  // Nor the other way: what someone signed in typed is never kept for whoever is signed out next,
  // when their session ends while the form is shown.
  const owner = useRouteLoaderData<typeof rootLoader>("root")?.user?.id ?? "nobody";
  const storageKey = `unsent:${key}@${owner}`;
  const keptAs = useRef(storageKey);
  const typedSignedIn = useRef(owner !== "nobody");
  useEffect(() => {
    if (keptAs.current !== storageKey && keptAs.current.endsWith("@nobody")) keepSent(keptAs.current, null);
    keptAs.current = storageKey;
    if (owner !== "nobody") typedSignedIn.current = true;
  }, [storageKey, owner]);
  // What the form held before the person's first touch, then as last saved: edits are what differs.
  const saved = useRef<string | null>(null);
  const lastSent = useRef<FormData | null>(null);

  // Whether the person changed the form while its last send was on its way.
  const editedSinceSend = useRef(false);

  // Before the effect below puts back what was sent.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form is first shown
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const stopMeasuring = measureFromFirstTouch(form, storageKey, saved);
    const stopWatching = watchEdits(form, editedSinceSend);
    return () => {
      stopMeasuring?.();
      stopWatching();
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form is first shown
  useEffect(() => {
    if (formRef.current) putBackUnsent(formRef.current, storageKey, setters, keptUntilAnswered);
  }, []);

  useEffect(() => {
    if (!fetcher.formData) return;
    lastSent.current = fetcher.formData;
    editedSinceSend.current = false;
    if (owner === "nobody" && typedSignedIn.current) return;
    keepSent(storageKey, fetcher.formData);
  }, [fetcher.formData, storageKey, owner]);

  const settling = useRef(false);
  useEffect(() => {
    if (fetcher.data === undefined) return;
    keepSent(storageKey, null);
    if (lastSent.current && savedBy(fetcher.data)) {
      saved.current = fingerprint(lastSent.current);
      settling.current = true;
    }
  }, [fetcher.data, storageKey]);
  // Saved, and the page's data loaded again: the form may now show the values as stored (a price sent
  // as 31 shows as 31.00), and that is the measure, unless the person changed it meanwhile.
  // biome-ignore lint/correctness/useExhaustiveDependencies: when the send settles
  useEffect(() => {
    if ((fetcher.state ?? "idle") !== "idle" || !settling.current) return;
    settling.current = false;
    if (editedSinceSend.current) return;
    const frame = requestAnimationFrame(() => {
      if (formRef.current) saved.current = fingerprint(new FormData(formRef.current));
    });
    return () => cancelAnimationFrame(frame);
  }, [fetcher.state]);

  useEffect(
    () => (keptUntilAnswered ? undefined : askBeforeLeaving(formRef, saved)),
    [formRef, keptUntilAnswered],
  );
  return editedSinceSend;
}
