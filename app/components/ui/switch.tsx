import { type ChangeEvent, type InputHTMLAttributes, type ReactNode, useId, useState } from "react";
import { cx } from "./cx";

/**
 * An on/off switch: a native checkbox with role="switch" (so it works without JavaScript, submits
 * "on" like any checkbox and is announced as a switch), styled as a toggle, with a label and hint.
 */
export function Switch({
  label,
  description,
  className,
  id,
  defaultChecked = false,
  onChange,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "role" | "checked"> & {
  label: ReactNode;
  description?: ReactNode;
}) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const descriptionId = description ? `${inputId}-description` : undefined;
  const [checked, setChecked] = useState(Boolean(defaultChecked));
  return (
    <div className={cx("switch-field", className)}>
      <input
        {...props}
        id={inputId}
        type="checkbox"
        role="switch"
        className="switch-input"
        defaultChecked={defaultChecked}
        aria-checked={checked}
        aria-describedby={descriptionId}
        onChange={(event: ChangeEvent<HTMLInputElement>) => {
          setChecked(event.currentTarget.checked);
          onChange?.(event);
        }}
      />
      <div>
        <label htmlFor={inputId} className="label">
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className="hint">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}
