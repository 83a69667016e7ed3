// The work behind useFocusKeeper. It runs only in an effect, so the Worker's build leaves it out.

/**
 * An element that names, by id, where focus goes when a focused control inside it leaves the page:
 * one id, or several separated by spaces, the first still on the page taking it.
 */
const FOCUS_FALLBACK_ATTRIBUTE = "data-focus-fallback";

/** The first element still on the page of those `ids` (space-separated) names. */
function firstPresent(ids: string | null): HTMLElement | null {
  for (const id of ids?.split(/\s+/) ?? []) {
    const element = id ? document.getElementById(id) : null;
    if (element) return element;
  }
  return null;
}

const bodyHasFocus = () => document.activeElement === null || document.activeElement === document.body;

/**
 * Keeps keyboard and screen-reader users in their place on pages whose actions change the page under
 * them. Browsers drop focus to the body, which sends the next Tab back to the top, when:
 * - the focused button is disabled while its form is busy: focus returns to it once it is enabled
 *   again (if nothing else took the focus meanwhile). In a dialog, the dialog itself holds focus
 *   meanwhile, so that it stays inside the dialog and not on the page behind;
 * - the focused control leaves the page (a cancelled session's row, a dialog's button): focus goes to
 *   the element named by the closest `data-focus-fallback` around where it was, else to the main
 *   content.
 * Installed by the signed-in areas and the sign-in forms (not by the public pages, whose script budget
 * is spent). Returns the clean-up.
 */
export function keepFocus() {
  let focused: HTMLElement | null = null;
  let fallbackId: string | null = null;
  let disabledWhileFocused: HTMLButtonElement | null = null;
  let heldBy: HTMLElement | null = null;

  // A dialog's controls fall back where its opener would have: it is shown outside its opener's section.
  let openerFallbackId: string | null = null;

  // Says what the held button now says ("Deleting..."): focus on the dialog reads out only its name
  // and description. Inside the dialog, which hides the rest of the page from screen readers.
  let busyStatus: HTMLElement | null = null;
  let busyButton: HTMLButtonElement | null = null;
  const sayBusy = (dialog: HTMLElement, button: HTMLButtonElement) => {
    endBusy();
    busyButton = button;
    const status = document.createElement("p");
    status.setAttribute("role", "status");
    status.className = "visually-hidden";
    dialog.appendChild(status);
    busyStatus = status;
    // Filled once in place, so that it is announced as a change.
    setTimeout(() => {
      status.textContent = button.textContent;
    }, 100);
  };
  const endBusy = () => {
    busyStatus?.remove();
    busyStatus = busyButton = null;
  };

  const onFocusIn = (event: FocusEvent) => {
    if (!(event.target instanceof HTMLElement) || event.target === heldBy) return;
    focused = event.target;
    const own =
      focused.closest(`[${FOCUS_FALLBACK_ATTRIBUTE}]`)?.getAttribute(FOCUS_FALLBACK_ATTRIBUTE) ?? null;
    if (focused.closest('[role="dialog"], [role="alertdialog"]')) fallbackId = own ?? openerFallbackId;
    else fallbackId = openerFallbackId = own;
    disabledWhileFocused = null;
  };

  const observer = new MutationObserver((records) => {
    for (const record of records) {
      const target = record.target;
      if (record.type !== "attributes" || !(target instanceof HTMLButtonElement)) continue;
      // The send is over, wherever focus went meanwhile.
      if (!target.disabled && target === busyButton) endBusy();
      if (target.disabled && target === focused) {
        disabledWhileFocused = target;
        heldBy = target.closest<HTMLElement>('[role="dialog"], [role="alertdialog"]');
        if (heldBy) {
          heldBy.focus({ preventScroll: true });
          sayBusy(heldBy, target);
        }
      } else if (!target.disabled && target === disabledWhileFocused) {
        disabledWhileFocused = null;
        if (target.isConnected && (bodyHasFocus() || document.activeElement === heldBy)) target.focus();
        heldBy = null;
      }
    }
    // Its button taken off the page (the answer dialog's other tab): it no longer speaks for anything.
    if (busyButton && !busyButton.isConnected) endBusy();
    if (focused && !focused.isConnected && bodyHasFocus()) {
      const lost = focused;
      focused = null;
      // After the frame: a dialog closing hands focus back to its trigger first, if it still exists.
      requestAnimationFrame(() => {
        if (!bodyHasFocus() || lost.isConnected) return;
        const fallback = firstPresent(fallbackId) ?? document.getElementById("main-content");
        fallback?.focus({ preventScroll: false });
      });
    }
  });

  // A press elsewhere (on text, say) puts focus there on purpose: nothing to keep.
  const onPointerDown = () => {
    focused = heldBy = null;
    disabledWhileFocused = null;
  };

  document.addEventListener("focusin", onFocusIn);
  document.addEventListener("pointerdown", onPointerDown, true);
  observer.observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["disabled"],
  });
  return () => {
    document.removeEventListener("focusin", onFocusIn);
    document.removeEventListener("pointerdown", onPointerDown, true);
    observer.disconnect();
    endBusy();
  };
}
