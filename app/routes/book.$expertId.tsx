import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { BookingPage, type BookingPageData } from "~/components/bookings/book-screen";
import { seo } from "~/components/seo";
import { loadBookingPage } from "~/services/booking-page.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import bookingsStylesHref from "~/styles/bookings.css";
import discoveryStylesHref from "~/styles/discovery.css";
import questionsStylesHref from "~/styles/questions.css";

export const links = () => [
  { rel: "stylesheet", href: discoveryStylesHref },
  { rel: "stylesheet", href: questionsStylesHref },
  { rel: "stylesheet", href: bookingsStylesHref },
];

export const meta: MetaFunction = ({ data }) => {
  const name = (data as BookingPageData | undefined)?.expert?.name;
  return seo(
    name ? `Book a Session with ${name}` : "Book a Session",
    name
      ? `Book a 60-minute video session with ${name} at a time that suits you.`
      : "Book a 60-minute video session with one of our experts.",
  );
};

export const headers = () => ({ "Cache-Control": PRIVATE_CACHE_CONTROL });

/** /book/{expertId}: signed-in clients only; an unknown expert gets SPEC.md's alert (404). */
export function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadBookingPage(context, request, params.expertId ?? null);
}

export default function BookRoute() {
  return <BookingPage data={useLoaderData<typeof loader>() as BookingPageData} />;
}
