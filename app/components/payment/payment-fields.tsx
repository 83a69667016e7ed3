import { forwardRef, lazy, Suspense, useCallback, useState } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { PAYMENT_TEXTS, type PaymentHandle, type PaymentSetup } from "./types";

// Stripe.js and the Payment Element load only when a paying screen renders this, never elsewhere.
// It renders only once hydrated, so the module is `.client`: the Worker's build leaves it out.
const StripePaymentElement = lazy(() => import("./stripe-payment-element.client"));

/**
 * The card payment box of a paying screen. Shows "Preparing payment form..." until Stripe's element
 * is ready, and SPEC.md's error if it cannot load. The screen pays through the ref (PaymentHandle).
 */
export const PaymentFields = forwardRef<
  PaymentHandle,
  {
    setup: PaymentSetup | null;
    onReadyChange: (ready: boolean) => void;
    /** The error shown when the element cannot load (default SPEC.md's payment text). */
    initFailedMessage?: string;
  }
>(function PaymentFields({ setup, onReadyChange, initFailedMessage = PAYMENT_TEXTS.initFailed }, ref) {
  const hydrated = useHydrated();
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<string | null>(setup ? null : initFailedMessage);
  const handleReady = useCallback(
    (value: boolean) => {
      setReady(value);
      onReadyChange(value);
    },
    [onReadyChange],
  );
  const handleError = useCallback(
    (message: string) => {
      setError(message === PAYMENT_TEXTS.initFailed ? initFailedMessage : message);
      onReadyChange(false);
    },
    [onReadyChange, initFailedMessage],
  );

  if (error || !setup) {
    return (
      <p className="form-error" role="alert">
        <strong>Error:</strong> {error ?? initFailedMessage}
      </p>
    );
  }
  return (
    <div className="payment-fields">
      {ready ? null : (
        <p className="status-text" role="status">
          {PAYMENT_TEXTS.preparing}
        </p>
      )}
      {hydrated ? (
        <Suspense fallback={null}>
          <StripePaymentElement
            ref={ref}
            setup={setup}
            onReadyChange={handleReady}
            onLoadError={handleError}
          />
        </Suspense>
      ) : null}
    </div>
  );
});
