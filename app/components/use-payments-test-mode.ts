import { useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

/** True when the app runs without Stripe (test mode): nothing was charged, so nothing is refunded. */
export function usePaymentsTestMode(): boolean {
  return useRouteLoaderData<typeof rootLoader>("root")?.config.paymentsTestMode ?? false;
}
