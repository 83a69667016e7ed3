/** The contract between a screen that takes a payment and the lazily loaded Stripe Payment Element. */

export type PaymentSetup = {
  publishableKey: string;
  /** Cents, as the server computed them (the server decides the real amount again). */
  amount: number;
  currency: "usd";
  /** `manual` authorises now and captures later (questions); bookings charge at once. */
  captureMethod: "manual" | "automatic" | "automatic_async";
  /**
   * `subscription`: the first invoice of a subscription is paid (the amount is the monthly price;
   * `captureMethod` is ignored, invoices are charged at once). Default `payment`.
   */
  mode?: "payment" | "subscription";
};

/** What the screen's server call returns once it has written its row and the PaymentIntent. */
export type PreparedPayment = { clientSecret: string; returnUrl: string };

export type PayOutcome =
  | { ok: true; paymentIntentId: string; status: string }
  | {
      ok: false;
      /** not_ready: Stripe.js is not loaded; details: the element's own validation; prepare: our server refused; payment: Stripe refused. */
      stage: "not_ready" | "details" | "prepare" | "payment";
      message: string;
      /** Whatever `prepare` threw, for the screen to tell a sign-in redirect from a refusal. */
      cause?: unknown;
    };

export type PaymentHandle = {
  /**
   * Validates the payment details, lets the screen write its row and PaymentIntent (`prepare`), then
   * confirms with Stripe, redirecting only for payment methods that need it.
   */
  pay(prepare: () => Promise<PreparedPayment>): Promise<PayOutcome>;
};

export const PAYMENT_TEXTS = {
  preparing: "Preparing payment form...",
  initFailed: "Failed to initialize payment. Please try again.",
  notReady: "Stripe has not initialized yet. Please try again.",
} as const;
