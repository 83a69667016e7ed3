import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { BookingPage, type BookingPageData } from "~/components/bookings/book-screen";
import { seo } from "~/components/seo";
import { parseId } from "~/models/bookings.server";
import { loadBookingPage } from "~/services/booking-page.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import bookingsStylesHref from "~/styles/bookings.css";
import questionsStylesHref from "~/styles/questions.css";

export const links = () => [
  { rel: "stylesheet", href: questionsStylesHref },
  { rel: "stylesheet", href: bookingsStylesHref },
];

export const meta: MetaFunction = () =>
  seo("Book a Session", "Book a 60-minute video session with one of our experts.");

export const headers = () => ({ "Cache-Control": PRIVATE_CACHE_CONTROL });

/**
 * /book?expert={id} (SPEC.md: the expert id may come from the query) goes to /book/{id}; /book
 * with no expert answers like an unknown expert, after the same sign-in check.
 */
export function loader({ request, context }: LoaderFunctionArgs) {
  const expertId = parseId(new URL(request.url).searchParams.get("expert"));
  if (expertId !== null) throw redirect(`/book/${expertId}`);
  return loadBookingPage(context, request, null);
}

export default function BookWithoutExpert() {
  return <BookingPage data={useLoaderData<typeof loader>() as BookingPageData} />;
}
