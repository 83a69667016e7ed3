// biome-ignore lint/style/noRestrictedImports: the one place that wraps Conform's useForm.
import { useForm as useConformForm } from "@conform-to/react";
import { useEffect } from "react";

/** How long a touch's click may follow the finger leaving the screen (no 300 ms delay: the viewport is set). */
const TAP_CLICK_GRACE_MS = 500;

/** The submit button (or input) of the form that `target` is or is inside, if any. */
function submitControlOf(target: EventTarget | null, formId: string): HTMLElement | null {
  const control = target instanceof Element ? target.closest("button, input") : null;
  return (control instanceof HTMLButtonElement || control instanceof HTMLInputElement) &&
    control.type === "submit" &&
    control.form?.id === formId
    ? control
    : null;
}

function formIdOf(element: EventTarget | null): string | undefined {
  if (
    element instanceof HTMLInputElement ||
    element instanceof HTMLTextAreaElement ||
    element instanceof HTMLSelectElement ||
    element instanceof HTMLButtonElement
  ) {
    return element.form?.id;
  }
  return undefined;
}

/**
 * Keeps a form's submit button under the pointer that presses it. Pressing the button takes focus
 * from the field being edited, and that field's blur validation would show its error above the
 * button at once, moving the button before the press ends: the browser then clicks nothing, and the
 * first press of Save did nothing (mouse and touch alike). While a submit control of the form is
 * pressed, the focusout of the form's field is held back from the page's listeners (the submit
 * validates every field anyway); a press that ends without submitting lets the field validate then.
 */
export function useSubmitKeptUnderThePointer(formId: string) {
  useEffect(() => {
    let pressed: HTMLElement | null = null;
    let submitted = false;
    let heldField: Element | null = null;
    let releaseTimer: ReturnType<typeof setTimeout> | undefined;

    const release = () => {
      clearTimeout(releaseTimer);
      if (!pressed) return;
      pressed = null;
      const field = heldField;
      heldField = null;
      if (field && !submitted && field.isConnected && document.activeElement !== field) {
        field.dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
      }
    };
    const onPointerDown = (event: PointerEvent) => {
      release();
      if (!event.isPrimary || event.button !== 0) return;
      pressed = submitControlOf(event.target, formId);
      submitted = false;
    };
    // A mouse's click follows its release in the same task; a tap's comes with the tap gesture.
    const onPointerUp = (event: PointerEvent) => {
      if (!pressed) return;
      clearTimeout(releaseTimer);
      releaseTimer = setTimeout(release, event.pointerType === "mouse" ? 0 : TAP_CLICK_GRACE_MS);
    };
    const onFocusOut = (event: FocusEvent) => {
      if (!pressed || !event.isTrusted || event.target === pressed || formIdOf(event.target) !== formId)
        return;
      heldField = event.target as Element;
      event.stopPropagation();
    };
    // Conform validates by submitting with a button of its own: only the pressed button's submit counts.
    const onSubmit = (event: SubmitEvent) => {
      if (pressed && event.submitter === pressed) submitted = true;
    };
    // Once the click has made its submit (its task is over), the press is over.
    const onClick = () => {
      if (!pressed) return;
      clearTimeout(releaseTimer);
      releaseTimer = setTimeout(release, 0);
    };

    document.addEventListener("pointerdown", onPointerDown, true);
    document.addEventListener("pointerup", onPointerUp, true);
    document.addEventListener("pointercancel", release, true);
    document.addEventListener("focusout", onFocusOut, true);
    document.addEventListener("submit", onSubmit, true);
    document.addEventListener("click", onClick, true);
    return () => {
      clearTimeout(releaseTimer);
      document.removeEventListener("pointerdown", onPointerDown, true);
      document.removeEventListener("pointerup", onPointerUp, true);
      document.removeEventListener("pointercancel", release, true);
      document.removeEventListener("focusout", onFocusOut, true);
      document.removeEventListener("submit", onSubmit, true);
      document.removeEventListener("click", onClick, true);
    };
  }, [formId]);
}

/** Conform's useForm, with the form's submit button kept under the pointer that presses it. */
export function useForm<Schema extends Record<string, unknown>, FormValue = Schema, FormError = string[]>(
  options: Parameters<typeof useConformForm<Schema, FormValue, FormError>>[0],
): ReturnType<typeof useConformForm<Schema, FormValue, FormError>> {
  const result = useConformForm<Schema, FormValue, FormError>(options);
  useSubmitKeptUnderThePointer(result[0].id);
  return result;
}
