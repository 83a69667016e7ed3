import { cx } from "./ui/cx";

/** A spinning ring with a text for screen readers (and sighted people, unless `hideLabel`). */
export function Spinner({
  label,
  hideLabel = false,
  className,
}: {
  label: string;
  hideLabel?: boolean;
  className?: string;
}) {
  return (
    <div className={cx("spinner", className)} role="status" aria-live="polite">
      <span className="spinner__ring" aria-hidden="true" />
      <span className={hideLabel ? "visually-hidden" : "spinner__label"}>{label}</span>
    </div>
  );
}
