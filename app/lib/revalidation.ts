import type { ShouldRevalidateFunction } from "@remix-run/react";

/** What a route's keepFormWhenOffline answers when a submission never reached the server. */
export const UNREACHABLE_STATUS = 503;

/**
 * A route's shouldRevalidate: reload its data after a submission as usual, except after one that never
 * reached the server (there is nothing new, and the reload would fail the same way and show the error
 * screen). Remix's single fetch reloads every route after a fetcher's submission unless the route has
 * a shouldRevalidate, so each route of a page with such forms, root included, exports this.
 */
export const revalidateUnlessUnreachable: ShouldRevalidateFunction = ({
  actionStatus,
  actionResult,
  defaultShouldRevalidate,
}) => !(actionStatus === UNREACHABLE_STATUS && actionResult === null) && defaultShouldRevalidate;
