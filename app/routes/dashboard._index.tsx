import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { type ClientActionFunctionArgs, Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/guards.server";
import { ClientBookingActions } from "~/components/bookings/client-booking-actions";
import { ClientBookings, type ClientBookingView } from "~/components/client-bookings";
import { ClientQuestions, type ClientQuestionView } from "~/components/client-questions";
import { FavoriteExperts, type RemoveFavoriteResult, UNFAVORITE_INTENT } from "~/components/favorite-experts";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { SubscriptionPanel } from "~/components/subscription-panel";
import { isNavigation } from "~/lib/action-response.server";
import { formatDate } from "~/lib/dates";
import { readForm } from "~/lib/form-data.server";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";
import { clientBookingsView } from "~/models/bookings.server";
import { getClientDashboard } from "~/models/client-dashboard.server";
import { removeFavorite } from "~/models/favorites.server";
import {
  cancelSubscription,
  getSubscriptionOverview,
  resumeSubscription,
  subscriptionDeps,
} from "~/models/subscriptions.server";
import { SubscriptionActionSchema } from "~/schemas/subscription";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import { redirectWithToast } from "~/services/flash.server";
import { parseExpertId } from "~/services/profile-page.server";
import bookingsStylesHref from "~/styles/bookings.css";
import subscriptionsStyles from "~/styles/subscriptions.css";

export const links = () => [
  { rel: "stylesheet", href: bookingsStylesHref },
  { rel: "stylesheet", href: subscriptionsStyles },
];

/** The whole dashboard: overview, favourite experts, questions and bookings, in one D1 round trip. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const now = context.now();
  // The subscription is payment state: read from the primary, like every payment read.
  const [dashboard, subscription] = await Promise.all([
    getClientDashboard(context.db, user.id),
    getSubscriptionOverview(context.primaryDb, user.id, new Date(now)),
  ]);
  const bookings = clientBookingsView(dashboard.bookings, {
    clientName: user.name ?? user.username,
    origin: new URL(request.url).origin,
    now: new Date(now),
  });
  return data(
    { ...dashboard, bookings, subscription, now, username: user.username },
    { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } },
  );
}

/**
 * The subscription panel's buttons (cancel at the end of the period, or resume before it), and a
 * favourite card's Remove button.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  const form = await readForm(request);
  if (form.get("intent") === UNFAVORITE_INTENT) {
    const expertId = parseExpertId(String(form.get("expertId") ?? ""));
    if (expertId === null) return data({ error: "Expert not found" }, { status: 400 });
    // An expert who has since left is taken off the list too: either way it is no longer a favourite.
    await removeFavorite(context.db, user.id, expertId);
    if (isNavigation(request)) {
      return redirectWithToast("/dashboard", {
        title: "Removed from favorites",
        description: "The expert is no longer in your favorite experts.",
      });
    }
    return data({ removed: expertId }, { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } });
  }
  const submission = parseWithZod(form, { schema: SubscriptionActionSchema });
  if (submission.status !== "success") {
    return data({ error: "Unknown action." }, { status: 400 });
  }
  const deps = subscriptionDeps(context);
  const cancel = submission.value.intent === "cancel-subscription";
  const result = cancel ? await cancelSubscription(deps, user.id) : await resumeSubscription(deps, user.id);
  if (!result.ok) {
    return redirectWithToast("/dashboard", {
      title: "Error",
      description: result.message,
      variant: "destructive",
    });
  }
  return redirectWithToast("/dashboard", {
    title: cancel ? "Subscription cancelled" : "Subscription resumed",
    description: result.endedNow
      ? "Your subscription has ended, and the failed payment will not be taken."
      : cancel
        ? `Your subscription stays active until ${formatDate(result.endDate.getTime())} and won't renew.`
        : `Your subscription will renew on ${formatDate(result.endDate.getTime())}.`,
  });
}

/**
 * The forms' clientAction (see keepFormWhenOffline). A favourite's Remove that the server fails
 * becomes a message and its card back, not the dashboard's error screen.
 */
export async function clientAction(args: ClientActionFunctionArgs) {
  if (args.request.method !== "POST") return keepFormWhenOffline(args);
  const intent = (await args.request.clone().formData()).get("intent");
  if (intent !== UNFAVORITE_INTENT) return keepFormWhenOffline(args);
  try {
    return await keepFormWhenOffline(args);
  } catch (error) {
    // A redirect (to sign in again) is still followed.
    if (error instanceof Response) throw error;
    return { error: "Something went wrong. Please try again." } satisfies RemoveFavoriteResult;
  }
}
export const shouldRevalidate = revalidateUnlessUnreachable;

export default function DashboardOverview() {
  const { favorites, questions, bookings, now, subscription } = useLoaderData<typeof loader>();
  const waiting = questions.filter(
    (question: ClientQuestionView) => question.status === "pending" || question.status === "in_progress",
  );
  const upcoming = bookings.filter(
    (booking: ClientBookingView) => booking.status === "confirmed" && booking.startsAt >= now,
  );
  return (
    <div className="stack-lg">
      <section className="dashboard-overview" aria-labelledby="overview-heading">
        <h2 id="overview-heading" className="visually-hidden">
          Overview
        </h2>
        <ul className="overview-stats plain-list">
          <li className="card overview-stat">
            <span className="overview-stat__value">{waiting.length}</span>
            <span className="overview-stat__label">
              {waiting.length === 1 ? "question awaiting an answer" : "questions awaiting an answer"}
            </span>
            <Link to="/dashboard/questions">View questions</Link>
          </li>
          <li className="card overview-stat">
            <span className="overview-stat__value">{upcoming.length}</span>
            <span className="overview-stat__label">
              {upcoming.length === 1 ? "upcoming session" : "upcoming sessions"}
            </span>
            <Link to="/dashboard/bookings">View bookings</Link>
          </li>
          <li className="card overview-stat">
            <span className="overview-stat__value">{favorites.length}</span>
            <span className="overview-stat__label">
              {favorites.length === 1 ? "favorite expert" : "favorite experts"}
            </span>
            <a href="#favorite-experts">See them</a>
          </li>
        </ul>
      </section>
      <SubscriptionPanel subscription={subscription} />
      <FavoriteExperts experts={favorites} />
      <ClientQuestions questions={questions} />
      <ClientBookings
        bookings={bookings}
        now={now}
        renderActions={(booking) => <ClientBookingActions booking={booking} now={now} />}
      />
    </div>
  );
}
