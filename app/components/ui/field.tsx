import * as LabelPrimitive from "@radix-ui/react-label";
import {
  type ComponentPropsWithoutRef,
  forwardRef,
  type InputHTMLAttributes,
  type ReactNode,
  type TextareaHTMLAttributes,
  useId,
} from "react";
import { cx } from "./cx";

export type FieldErrors = ReadonlyArray<string> | null | undefined;

export function Label({ className, ...props }: ComponentPropsWithoutRef<typeof LabelPrimitive.Root>) {
  return <LabelPrimitive.Root className={cx("label", className)} {...props} />;
}

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, ...props },
  ref,
) {
  return <input ref={ref} className={cx("input", className)} {...props} />;
});

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(
  function Textarea({ className, ...props }, ref) {
    return <textarea ref={ref} className={cx("textarea", className)} {...props} />;
  },
);

/** The messages under a field. Always rendered (empty) so the live region exists before errors arrive. */
export function ErrorList({ id, errors }: { id?: string; errors?: FieldErrors }) {
  const list = errors?.filter(Boolean) ?? [];
  return (
    <ul id={id} className="error-list" aria-live="polite">
      {list.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}

/**
 * The ids and aria attributes that tie a control to its hint and errors. Error ids follow conform's
 * convention (`${id}-error`), so conform's `fields.x.errorId` and this agree.
 */
function useFieldIds(inputId: string | undefined, errors: FieldErrors, hint: ReactNode) {
  const fallbackId = useId();
  const id = inputId ?? fallbackId;
  const errorId = `${id}-error`;
  const hintId = hint ? `${id}-hint` : undefined;
  const invalid = Boolean(errors?.length);
  const describedBy = [hintId, invalid ? errorId : undefined].filter(Boolean).join(" ") || undefined;
  return { id, errorId, hintId, invalid, describedBy };
}

type FieldProps<T> = {
  label: ReactNode;
  /** Props of the control; conform's getInputProps(...) output can go straight in. */
  inputProps: T & { id?: string; key?: string | null };
  errors?: FieldErrors;
  hint?: ReactNode;
  className?: string;
};

/** Label + input + hint + errors, with aria-invalid and aria-describedby wired up. */
export function Field({
  label,
  inputProps,
  errors,
  hint,
  className,
  invalidBecause,
}: FieldProps<InputHTMLAttributes<HTMLInputElement>> & {
  /** The id of a message, not the field's own, that makes it invalid (a failed login names no field). */
  invalidBecause?: string;
}) {
  const { key, ...rest } = inputProps;
  const ids = useFieldIds(rest.id, errors, hint);
  return (
    <div className={cx("field", className)}>
      <Label htmlFor={ids.id}>{label}</Label>
      <Input
        key={key ?? undefined}
        {...rest}
        id={ids.id}
        aria-invalid={ids.invalid || Boolean(invalidBecause) || undefined}
        aria-describedby={[ids.describedBy, invalidBecause].filter(Boolean).join(" ") || undefined}
      />
      {hint ? (
        <p id={ids.hintId} className="hint">
          {hint}
        </p>
      ) : null}
      <ErrorList id={ids.errorId} errors={errors} />
    </div>
  );
}

export function TextareaField({
  label,
  inputProps,
  errors,
  hint,
  className,
}: FieldProps<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  const { key, ...rest } = inputProps;
  const ids = useFieldIds(rest.id, errors, hint);
  return (
    <div className={cx("field", className)}>
      <Label htmlFor={ids.id}>{label}</Label>
      <Textarea
        key={key ?? undefined}
        {...rest}
        id={ids.id}
        aria-invalid={ids.invalid || undefined}
        aria-describedby={ids.describedBy}
      />
      {hint ? (
        <p id={ids.hintId} className="hint">
          {hint}
        </p>
      ) : null}
      <ErrorList id={ids.errorId} errors={errors} />
    </div>
  );
}
