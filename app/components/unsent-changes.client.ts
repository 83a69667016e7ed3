import type { Blocker, Router } from "@remix-run/router";
import type { MutableRefObject } from "react";
import { toast } from "~/components/ui/toast";

// The work behind useUnsentChanges. It runs only in effects, so the Worker's build leaves it out.

/** The settings forms' answers: `{ ok: true }`, or a conform reply that succeeded. */
export const savedBy = (data: unknown) => {
  const answer = data as { ok?: unknown; result?: { status?: unknown } | null } | null;
  return answer?.ok === true || (answer?.ok === undefined && answer?.result?.status === "success");
};

const FIRST_TOUCH = ["pointerdown", "keydown", "focusin"] as const;

/**
 * Sets `saved` to the form at the person's first touch (a press, a key, focus), not when it is shown,
 * so what the page fills in by itself (a suggested time zone) is not an edit. Edits come first in two
 * cases, and the form as the server sent it is the measure then: sent changes waiting to be put back,
 * and what was typed before the page's script ran. Returns the clean-up.
 */
export function measureFromFirstTouch(
  form: HTMLFormElement,
  storageKey: string,
  saved: MutableRefObject<string | null>,
) {
  if (read(storageKey)) {
    saved.current = fingerprint(new FormData(form));
    return undefined;
  }
  // Only a form the server rendered, and this is the page's hydration (the root marks it after):
  // a form rendered in the browser has no server state, and its selects no `selected` attribute.
  const asSent = document.documentElement.dataset.hydrated ? null : asServerSentIt(form);
  if (asSent !== null && fingerprint(new FormData(form)) !== asSent) {
    saved.current = asSent;
    return undefined;
  }
  const stop = () => {
    for (const type of FIRST_TOUCH) form.removeEventListener(type, onFirstTouch, true);
  };
  const onFirstTouch = () => {
    if (saved.current === null) saved.current = fingerprint(new FormData(form));
    stop();
  };
  for (const type of FIRST_TOUCH) form.addEventListener(type, onFirstTouch, true);
  return stop;
}

/** Notes in `edited` each change the person makes to the form (not the page's own). Returns the clean-up. */
export function watchEdits(form: HTMLFormElement, edited: MutableRefObject<boolean>) {
  const onEdit = (event: Event) => {
    if (event.isTrusted) edited.current = true;
  };
  form.addEventListener("input", onEdit, true);
  form.addEventListener("change", onEdit, true);
  return () => {
    form.removeEventListener("input", onEdit, true);
    form.removeEventListener("change", onEdit, true);
  };
}

/** Puts back what was sent and not answered (see useUnsentChanges), and says so. */
export function putBackUnsent(
  form: HTMLFormElement,
  storageKey: string,
  setters: Record<string, (values: string[]) => void>,
  keptUntilAnswered: boolean,
) {
  const sent = read(storageKey);
  if (!sent) return;
  // A form kept as it is typed (`formData` follows every change) keeps it until it is answered.
  if (!keptUntilAnswered) write(storageKey, null);
  const values = new Map<string, string[]>();
  for (const [name, value] of sent) values.set(name, [...(values.get(name) ?? []), value]);
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
}

/** Keeps what a form sent (or, with null, forgets it). */
export function keepSent(storageKey: string, formData: FormData | null) {
  write(storageKey, formData && keptEntries(formData));
}

/** The click or logout the person already agreed to leave on: one question for it, however many forms. */
let leaveAgreedOn: Event | null = null;

const LEAVE_QUESTION = "Leave this page? Your changes have not been saved.";

/**
 * Asks before the page is left while the form differs from `saved`: the browser's own question for a
 * reload, a closed tab or another site, and ours for a link inside the app, Back or Forward to another
 * of its pages, or a logout, which leave without unloading the page. Returns the clean-up.
 */
export function askBeforeLeaving(
  formRef: { current: HTMLFormElement | null },
  saved: MutableRefObject<string | null>,
) {
  const unsaved = () => {
    const form = formRef.current;
    return Boolean(form && saved.current !== null && fingerprint(new FormData(form)) !== saved.current);
  };
  const onBeforeUnload = (event: BeforeUnloadEvent) => {
    if (!unsaved()) return;
    event.preventDefault();
    // Chromium before 119 and Safari ask only when this is set.
    event.returnValue = "";
  };
  // Before the app's links and forms handle the event (capture, on the window).
  const onLeave = (event: Event) => {
    if (event.defaultPrevented || event === leaveAgreedOn || !leaves(event) || !unsaved()) return;
    if (window.confirm(LEAVE_QUESTION)) leaveAgreedOn = event;
    else {
      event.preventDefault();
      event.stopPropagation();
    }
  };
  window.addEventListener("beforeunload", onBeforeUnload);
  window.addEventListener("click", onLeave, true);
  window.addEventListener("submit", onLeave, true);
  const stopAskingOnBack = askOnBackAndForward(unsaved);
  return () => {
    stopAskingOnBack();
    window.removeEventListener("beforeunload", onBeforeUnload);
    window.removeEventListener("click", onLeave, true);
    window.removeEventListener("submit", onLeave, true);
  };
}

/** The unsaved-edits checks of the forms shown: one question for Back or Forward, however many forms. */
const unsavedChecks = new Set<() => boolean>();
const BACK_AND_FORWARD = "unsent-changes";
let stopBlocking: (() => void) | undefined;

/**
 * Back and Forward between the app's pages change no document, so no page event comes before them.
 * The app's router can hold such a move (it puts the address back) while we ask; `useBlocker` would
 * do the same through React, but costs every public page its code. Returns the clean-up.
 */
function askOnBackAndForward(unsaved: () => boolean) {
  unsavedChecks.add(unsaved);
  const router = window.__remixRouter;
  if (unsavedChecks.size === 1 && router) stopBlocking = holdBackAndForward(router);
  return () => {
    unsavedChecks.delete(unsaved);
    if (unsavedChecks.size > 0) return;
    stopBlocking?.();
    stopBlocking = undefined;
  };
}

function holdBackAndForward(router: Router) {
  const anyUnsaved = () => [...unsavedChecks].some((check) => check());
  router.getBlocker(BACK_AND_FORWARD, ({ currentLocation, nextLocation, historyAction }) => {
    const { navigation } = router.state;
    return (
      historyAction === "POP" &&
      // As with links, this page with another query keeps its forms.
      nextLocation.pathname !== currentLocation.pathname &&
      // Another page is loading (a link, which asked first): Back only leaves sooner. This page
      // with another query (its own tab) keeps its forms, and is no such agreement.
      !(
        navigation.state === "loading" &&
        !navigation.formMethod &&
        navigation.location.pathname !== currentLocation.pathname
      ) &&
      anyUnsaved()
    );
  });

  let askedAbout: Blocker | undefined;
  const unsubscribe = router.subscribe(({ blockers }) => {
    const blocker = blockers.get(BACK_AND_FORWARD);
    if (blocker?.state !== "blocked" || blocker === askedAbout) return;
    askedAbout = blocker;
    // After the router's update, not inside it.
    setTimeout(() => (window.confirm(LEAVE_QUESTION) ? blocker.proceed() : blocker.reset()));
  });
  return () => {
    unsubscribe();
    router.deleteBlocker(BACK_AND_FORWARD);
  };
}

/** A click that follows a link to another page, or a logout (the header's, the sidebar's, the account's). */
function leaves(event: Event) {
  if (event.type === "click") return leavesForAnotherPage(event as MouseEvent);
  const form = event.target;
  return (
    form instanceof HTMLFormElement &&
    (new URL(form.action).pathname === "/logout" ||
      form.querySelector('[name="intent"][value="logout"]') !== null)
  );
}

/**
 * A plain click on a link to another page of this site, in this tab. Links elsewhere unload the page,
 * where the browser asks; a link within the page (the skip link) leaves nothing, nor does one to this
 * page with another query (Edit Profile, from its Pricing tab), which keeps its forms.
 */
function leavesForAnotherPage(event: MouseEvent) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute("download")) return false;
  if (link.target && link.target !== "_self") return false;
  const here = window.location;
  return link.origin === here.origin && link.pathname !== here.pathname;
}

/** The form's fields as the server rendered them (their default values), not as since typed. */
function asServerSentIt(form: HTMLFormElement) {
  const copy = form.cloneNode(true) as HTMLFormElement;
  copy.reset();
  return fingerprint(new FormData(copy));
}

/** What is kept of a form: its text fields, never a password, nor the intent (the button's). */
function keptEntries(formData: FormData): [string, string][] {
  const entries: [string, string][] = [];
  for (const [name, value] of formData) {
    if (typeof value === "string" && name !== "intent" && !/password/i.test(name))
      entries.push([name, value]);
  }
  return entries;
}

export const fingerprint = (formData: FormData) => JSON.stringify(keptEntries(formData));

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
