import { useEffect } from "react";

/** The name of the button conform submits a form with to validate one field (@conform-to/dom's INTENT). */
const CONFORM_INTENT = "__intent__";

/**
 * When a submission of the form `formId` is refused, moves focus to its first invalid field, so a
 * keyboard or screen-reader user lands on what to fix rather than on the submit button:
 * - refused in the browser: two frames after the submit event, once the fields are marked;
 * - refused by the server: when `serverResult` (the form's last reply) changes.
 * A field the person is already in keeps the focus, and so does anything outside the form.
 */
export function useFocusFirstInvalid(formId: string, serverResult?: unknown) {
  useEffect(() => {
    const onSubmit = (event: Event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || form.id !== formId) return;
      // Conform checks a field the person leaves by submitting the form with its own intent button:
      // that is someone moving on, not a refused submission.
      const { submitter } = event as SubmitEvent;
      if (submitter instanceof HTMLButtonElement && submitter.name === CONFORM_INTENT) return;
      requestAnimationFrame(() => requestAnimationFrame(() => focusFirstInvalid(form)));
    };
    document.addEventListener("submit", onSubmit, true);
    return () => document.removeEventListener("submit", onSubmit, true);
  }, [formId]);

  useEffect(() => {
    if (!serverResult) return;
    const frame = requestAnimationFrame(() => {
      const form = document.getElementById(formId);
      if (form instanceof HTMLFormElement) focusFirstInvalid(form);
    });
    return () => cancelAnimationFrame(frame);
  }, [formId, serverResult]);
}

function focusFirstInvalid(form: HTMLFormElement) {
  const invalid = form.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!invalid || invalid.contains(document.activeElement)) return;
  const active = document.activeElement;
  if (active && active !== document.body && !form.contains(active)) return;
  // A composite control marked as a whole (the booking calendar) takes focus on its Tab stop.
  const target = invalid.matches("input, select, textarea, button, [tabindex]")
    ? invalid
    : (invalid.querySelector<HTMLElement>('[tabindex="0"]') ?? invalid);
  target.focus();
}
