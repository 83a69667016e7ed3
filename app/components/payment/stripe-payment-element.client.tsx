/**
 * The Stripe Payment Element, loaded only on screens that take a payment (payment-fields.tsx imports
 * this module lazily, so Stripe.js and this code stay out of every other page's bundle).
 *
 * Deferred intent: the element is shown before any PaymentIntent exists (mode "payment" with the
 * amount, or "subscription" for a subscription's first invoice); at submit the screen writes its row
 * and PaymentIntent (or subscription) and hands back the client secret.
 */
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";
import { forwardRef, useEffect, useImperativeHandle, useState } from "react";
import { PAYMENT_TEXTS, type PaymentHandle, type PaymentSetup } from "./types";

const APPEARANCE = {
  theme: "stripe" as const,
  variables: { colorPrimary: "#3450d4", borderRadius: "6px", fontFamily: "system-ui, sans-serif" },
};

const stripePromises = new Map<string, Promise<Stripe | null>>();

function stripeFor(publishableKey: string) {
  let promise = stripePromises.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey).catch((error: unknown) => {
      stripePromises.delete(publishableKey);
      throw error;
    });
    stripePromises.set(publishableKey, promise);
  }
  return promise;
}

type Props = {
  setup: PaymentSetup;
  onReadyChange: (ready: boolean) => void;
  onLoadError: (message: string) => void;
};

const StripePaymentElement = forwardRef<PaymentHandle, Props>(function StripePaymentElement(props, ref) {
  const { setup, onLoadError } = props;
  const [stripePromise] = useState(() => stripeFor(setup.publishableKey));
  useEffect(() => {
    let cancelled = false;
    stripePromise.then(
      (stripe) => {
        if (!stripe && !cancelled) onLoadError(PAYMENT_TEXTS.initFailed);
      },
      () => {
        if (!cancelled) onLoadError(PAYMENT_TEXTS.initFailed);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [stripePromise, onLoadError]);
  return (
    <Elements
      stripe={stripePromise}
      options={
        setup.mode === "subscription"
          ? { mode: "subscription", amount: setup.amount, currency: setup.currency, appearance: APPEARANCE }
          : {
              mode: "payment",
              amount: setup.amount,
              currency: setup.currency,
              captureMethod: setup.captureMethod,
              appearance: APPEARANCE,
            }
      }
    >
      <PaymentForm {...props} ref={ref} />
    </Elements>
  );
});

const PaymentForm = forwardRef<PaymentHandle, Props>(function PaymentForm(
  { onReadyChange, onLoadError },
  ref,
) {
  const stripe = useStripe();
  const elements = useElements();

  useImperativeHandle(
    ref,
    () => ({
      async pay(prepare) {
        if (!stripe || !elements) return { ok: false, stage: "not_ready", message: PAYMENT_TEXTS.notReady };
        const { error: detailsError } = await elements.submit();
        if (detailsError) {
          return {
            ok: false,
            stage: "details",
            message: detailsError.message ?? "Please check your payment details.",
          };
        }
        let prepared: Awaited<ReturnType<typeof prepare>>;
        try {
          prepared = await prepare();
        } catch (cause) {
          return {
            ok: false,
            stage: "prepare",
            message: cause instanceof Error ? cause.message : PAYMENT_TEXTS.initFailed,
            cause,
          };
        }
        const result = await stripe.confirmPayment({
          elements,
          clientSecret: prepared.clientSecret,
          confirmParams: { return_url: prepared.returnUrl },
          redirect: "if_required",
        });
        if (result.error) {
          return { ok: false, stage: "payment", message: result.error.message ?? "Your payment failed." };
        }
        return { ok: true, paymentIntentId: result.paymentIntent.id, status: result.paymentIntent.status };
      },
    }),
    [stripe, elements],
  );

  return (
    <PaymentElement
      options={{ layout: "tabs" }}
      onReady={() => onReadyChange(true)}
      onLoadError={() => onLoadError(PAYMENT_TEXTS.initFailed)}
    />
  );
});

export default StripePaymentElement;
