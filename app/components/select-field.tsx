import { type ReactNode, type SelectHTMLAttributes, useId } from "react";
import { cx } from "./ui/cx";
import { ErrorList, type FieldErrors, Label } from "./ui/field";

/** Label + native select + hint + errors (a native select is the most accessible choice on phones). */
export function SelectField({
  label,
  selectProps,
  options,
  placeholder,
  errors,
  hint,
  className,
}: {
  label: ReactNode;
  selectProps: SelectHTMLAttributes<HTMLSelectElement> & { id?: string };
  options: ReadonlyArray<{ value: string; label: string }>;
  placeholder?: string;
  errors?: FieldErrors;
  hint?: ReactNode;
  className?: string;
}) {
  const fallbackId = useId();
  const id = selectProps.id ?? fallbackId;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  const invalid = Boolean(errors?.length);
  return (
    <div className={cx("field", className)}>
      <Label htmlFor={id}>{label}</Label>
      <select
        {...selectProps}
        id={id}
        className="select"
        aria-invalid={invalid || undefined}
        aria-describedby={[hintId, invalid ? errorId : undefined].filter(Boolean).join(" ") || undefined}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={hintId} className="hint">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}
