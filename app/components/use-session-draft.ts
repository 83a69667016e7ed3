import { useRouteLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";
import type { loader as rootLoader } from "~/root";

/**
 * Keeps what someone is writing in a long text field (a question, an answer) in this tab's
 * sessionStorage until it is sent, so a failed submission (the network drops, the server errs and
 * the error screen replaces the page), a reload or a Back leaves nothing to type again. The tab's
 * storage, not localStorage: a question stays off a shared computer once the tab is closed.
 *
 * On mount a field still holding its starting text gets the saved draft through `restore`; every
 * change is saved (an empty one removes it). Call the returned function once the text has been
 * accepted. A field that starts from saved text (`base`, an answer's draft on the server) keeps its
 * local draft apart for each base: a newer base saved elsewhere is never covered by an older draft.
 *
 * A draft belongs to the person signed in when it was typed: someone else signing in on the same tab
 * never sees it, and their first draft form forgets it.
 */
export function useSessionDraft(fieldKey: string, value: string, restore: (text: string) => void, base = "") {
  const owner = useRouteLoaderData<typeof rootLoader>("root")?.user?.id ?? "nobody";
  const key = `${fieldKey}${base ? `#${fingerprint(base)}` : ""}@${owner}`;
  const firstRun = useRef(true);
  // Read through refs: the restore runs only when the field (its key) appears, never on later edits.
  const restoreRef = useRef(restore);
  restoreRef.current = restore;
  const valueRef = useRef(value);
  valueRef.current = value;

  useEffect(() => {
    forgetDraftsNotOf(owner);
    const saved = readDraft(key);
    if (saved && valueRef.current === base) restoreRef.current(saved);
  }, [key, owner, base]);

  useEffect(() => {
    // The first run sees the value from before the restore above; saving it would drop the draft.
    if (firstRun.current) {
      firstRun.current = false;
      return;
    }
    writeDraft(key, value);
  }, [key, value]);

  return useCallback(() => writeDraft(key, ""), [key]);
}

/** The Ask screen's drafts, one per expert: `${ASK_DRAFT_PREFIX}${expertId}`. */
export const ASK_DRAFT_PREFIX = "draft:ask:";
/** The booking screen's message drafts, one per expert: `${BOOK_DRAFT_PREFIX}${expertId}`. */
export const BOOK_DRAFT_PREFIX = "draft:book:";

/** Forgets every draft whose key starts with `prefix` (after the thing they were for was sent). */
export function clearSessionDrafts(prefix: string) {
  try {
    for (const key of Object.keys(window.sessionStorage)) {
      if (key.startsWith(prefix)) window.sessionStorage.removeItem(key);
    }
  } catch {
    // Storage switched off: there is nothing to clear.
  }
}

/** Removes the drafts typed by anyone but `owner` (a shared tab, after a logout). */
function forgetDraftsNotOf(owner: string | number) {
  try {
    for (const key of Object.keys(window.sessionStorage)) {
      if (key.startsWith("draft:") && !key.endsWith(`@${owner}`)) window.sessionStorage.removeItem(key);
    }
  } catch {
    // Storage switched off: there is nothing to forget.
  }
}

/** A short name for a text (djb2 and the length): which saved base a draft was typed on. */
function fingerprint(text: string): string {
  let hash = 5381;
  for (let at = 0; at < text.length; at++) hash = (hash * 33) ^ text.charCodeAt(at);
  return `${(hash >>> 0).toString(36)}.${text.length}`;
}

function readDraft(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeDraft(key: string, value: string) {
  try {
    if (value.trim()) window.sessionStorage.setItem(key, value);
    else window.sessionStorage.removeItem(key);
  } catch {
    // Storage full or switched off (private browsing): the field still works, without the safety net.
  }
}
