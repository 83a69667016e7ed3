import { type InputHTMLAttributes, type ReactNode, useId } from "react";
import { cx } from "./ui/cx";
import { ErrorList, type FieldErrors, Input, Label } from "./ui/field";

/**
 * A text field with a fixed prefix shown before what is typed ("$" for prices, the site address for
 * a custom URL). The prefix is part of the accessible description, not of the value.
 */
export function PrefixedField({
  label,
  prefix,
  inputProps,
  errors,
  hint,
  className,
}: {
  label: ReactNode;
  prefix: string;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id?: string };
  errors?: FieldErrors;
  hint?: ReactNode;
  className?: string;
}) {
  const fallbackId = useId();
  const id = inputProps.id ?? fallbackId;
  const prefixId = `${id}-prefix`;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  const invalid = Boolean(errors?.length);
  return (
    <div className={cx("field", className)}>
      <Label htmlFor={id}>{label}</Label>
      <div className="input-group" data-invalid={invalid || undefined}>
        <span id={prefixId} className="input-group__prefix">
          {prefix}
        </span>
        <Input
          {...inputProps}
          id={id}
          className="input-group__input"
          aria-invalid={invalid || undefined}
          aria-describedby={[prefixId, hintId, invalid ? errorId : undefined].filter(Boolean).join(" ")}
        />
      </div>
      {hint ? (
        <p id={hintId} className="hint">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}
