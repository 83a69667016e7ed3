/**
 * The booking screen's loader, shared by /book/{expertId} and /book: a signed-in client only (else
 * SPEC.md's toast and /auth, and back here after signing in), the expert, their schedule and the
 * starts already taken. The screen works out the free slots in the client's own zone.
 */
import { type AppLoadContext, data } from "@remix-run/cloudflare";
import { getOptionalUser } from "~/auth/session.server";
import { LOGIN_TOAST, loginPath } from "~/components/bookings/book-screen";
import { getBookingExpert, getHoldToRetry, listBusyStarts, parseId } from "~/models/bookings.server";
import { PRIVATE_CACHE_CONTROL } from "./cache.server";
import { redirectWithToast } from "./flash.server";

const headers = { "Cache-Control": PRIVATE_CACHE_CONTROL };

export async function loadBookingPage(context: AppLoadContext, request: Request, segment: string | null) {
  const url = new URL(request.url);
  const user = await getOptionalUser(context, request);
  if (!user) throw await redirectWithToast(loginPath(`${url.pathname}${url.search}`), LOGIN_TOAST);
  const expertId = parseId(segment);
  const expert = expertId === null ? null : await getBookingExpert(context.db, expertId);
  if (!expert) return data({ found: false as const, expert: null }, { status: 404, headers });
  const now = new Date(context.now());
  // Back from a bank's page whose payment failed (/book/return): the client's own hold, to pay again.
  const retryId = parseId(url.searchParams.get("retry"));
  const [busyStarts, retry] = await Promise.all([
    expert.isAvailable ? listBusyStarts(context.db, expert.id, now) : [],
    retryId === null || !expert.isAvailable
      ? null
      : getHoldToRetry(context.primaryDb, { bookingId: retryId, userId: user.id, expertId: expert.id, now }),
  ]);
  const busy = retry ? busyStarts.filter((start) => start !== retry.startsAt) : busyStarts;
  const mode: "test" | "paid" = context.config.paymentsTestMode ? "test" : "paid";
  return data(
    {
      found: true as const,
      expert: {
        id: expert.id,
        name: expert.name,
        title: expert.title,
        profileImage: expert.profileImage,
        customUrl: expert.customUrl,
        sessionPrice: expert.sessionPrice,
        timeZone: expert.timeZone,
        isAvailable: expert.isAvailable,
        schedule: expert.schedule,
      },
      busy,
      now: now.getTime(),
      ownProfile: expert.userId === user.id,
      mode,
      publishableKey: mode === "paid" ? (context.config.stripe.publishableKey ?? null) : null,
      client: { name: user.name ?? "", email: user.email },
      retry,
    },
    { headers },
  );
}
