import { useFormAction } from "@remix-run/react";
import type { ReactNode } from "react";
import { Button, type ButtonSize, type ButtonVariant, buttonClass } from "./button";

/**
 * A confirmation that needs no JavaScript, for a page not (yet) hydrated, in place of a dialog: the
 * button opens the question below it, and the plain form there posts `intent` to `action` (the
 * page's own route when absent) as a page, whose answer comes back with the outcome.
 */
export function ConfirmDisclosure({
  label,
  description,
  confirmLabel,
  intent,
  action,
  variant = "danger",
  size,
}: {
  label: string;
  description: ReactNode;
  confirmLabel: string;
  intent?: string;
  action?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
}) {
  // The route's own action, with `?index` for an index route, as Remix's <Form> would post to.
  const ownAction = useFormAction();
  return (
    <details className="confirm-disclosure">
      <summary className={buttonClass({ variant, size })}>{label}</summary>
      <div className="confirm-disclosure__body stack">
        <p>{description}</p>
        <form method="post" action={action ?? ownAction}>
          {intent ? <input type="hidden" name="intent" value={intent} /> : null}
          <Button type="submit" variant="danger" size={size}>
            {confirmLabel}
          </Button>
        </form>
      </div>
    </details>
  );
}
