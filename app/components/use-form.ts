// biome-ignore lint/style/noRestrictedImports: the one place that wraps Conform's useForm.
import { useForm as useConformForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { stopWhenOffline } from "./keep-form-when-offline";

/** How long a touch's click may follow the finger leaving the screen (no 300 ms delay: the viewport is set). */
const TAP_CLICK_GRACE_MS = 500;

type FormControl = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | HTMLButtonElement;

function isFormControl(target: EventTarget | null): target is FormControl {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    target instanceof HTMLButtonElement
  );
}

/** The submit button (or input) of the form that `target` is or is inside, if any. */
function submitControlOf(target: EventTarget | null, formId: string): FormControl | null {
  const control = target instanceof Element ? target.closest("button, input") : null;
  return isFormControl(control) && control.type === "submit" && control.form?.id === formId ? control : null;
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
    let pressed: FormControl | null = null;
    let submitted = false;
    let heldField: FormControl | null = null;
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
      const field = event.target;
      if (!pressed || !event.isTrusted || field === pressed) return;
      if (!isFormControl(field) || field.form?.id !== formId) return;
      heldField = field;
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

    const listening = new AbortController();
    const options = { capture: true, signal: listening.signal };
    document.addEventListener("pointerdown", onPointerDown, options);
    document.addEventListener("pointerup", onPointerUp, options);
    document.addEventListener("pointercancel", release, options);
    document.addEventListener("focusout", onFocusOut, options);
    document.addEventListener("submit", onSubmit, options);
    document.addEventListener("click", onClick, options);
    return () => {
      clearTimeout(releaseTimer);
      listening.abort();
    };
  }, [formId]);
}

/**
 * Checks a field as the person leaves it only once they have changed it. Tabbing through a form to
 * reach a button further on (Log Out below the password fields) would otherwise mark every empty
 * field it passes as wrong, and read each message out. A field's focusout is held back from conform
 * (and the page's other listeners) until the field has had an input or change event; a submit
 * still checks every field.
 */
export function useBlurChecksOnlyWhatWasEdited(formId: string) {
  useEffect(() => {
    const edited = new WeakSet<EventTarget>();
    const isOwnField = (target: EventTarget | null): target is FormControl =>
      isFormControl(target) && !(target instanceof HTMLButtonElement) && target.form?.id === formId;
    const onEdit = (event: Event) => {
      if (isOwnField(event.target)) edited.add(event.target);
    };
    const onFocusOut = (event: FocusEvent) => {
      if (isOwnField(event.target) && !edited.has(event.target)) event.stopPropagation();
    };
    const listening = new AbortController();
    const options = { capture: true, signal: listening.signal };
    document.addEventListener("input", onEdit, options);
    document.addEventListener("change", onEdit, options);
    document.addEventListener("focusout", onFocusOut, options);
    return () => listening.abort();
  }, [formId]);
}

/**
 * Conform's useForm, with the form's submit button kept under the pointer that presses it, a field
 * checked on leaving it only once it was changed, and a valid form that is sent while the browser
 * is offline kept as it is, with a message. (A fetcher's
 * failed submission cannot be caught later: Remix reloads the page's data after it, which fails too;
 * a page's own forms are also covered by their routes' keepFormWhenOffline.)
 */
export function useForm<Schema extends Record<string, unknown>, FormValue = Schema, FormError = string[]>(
  options: Parameters<typeof useConformForm<Schema, FormValue, FormError>>[0],
): ReturnType<typeof useConformForm<Schema, FormValue, FormError>> {
  const result = useConformForm<Schema, FormValue, FormError>({
    ...options,
    onSubmit(event, context) {
      if (!stopWhenOffline(event)) options.onSubmit?.(event, context);
    },
  });
  useSubmitKeptUnderThePointer(result[0].id);
  useBlurChecksOnlyWhatWasEdited(result[0].id);
  return result;
}

/**
 * The fields `schema` requires, as conform's `constraint`: their inputs get `required`, which a screen
 * reader announces and the stylesheet marks. Only that: a `maxLength` would cut a paste short without
 * the schema's message, and the form's `noValidate` leaves every check to the schema. Lists (a group
 * of checkboxes, the week's days) are left out: `required` on each box would ask for all of them.
 */
export function requiredFields(schema: ConstrainedSchema) {
  // Once per schema, not on every render of the form: the schemas are module constants (or memoised).
  let fields = requiredBySchema.get(schema);
  if (!fields) {
    fields = Object.fromEntries(
      Object.entries(getZodConstraint(schema))
        .filter(([name, constraint]) => constraint.required && !constraint.multiple && !name.includes("["))
        .map(([name]) => [name, { required: true }]),
    );
    requiredBySchema.set(schema, fields);
  }
  return fields;
}
type ConstrainedSchema = Parameters<typeof getZodConstraint>[0];
const requiredBySchema = new WeakMap<ConstrainedSchema, Record<string, { required: true }>>();
