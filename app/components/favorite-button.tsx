import { type ClientActionFunctionArgs, Link, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { cx } from "~/components/ui/cx";
import { toast } from "~/components/ui/toast";

/** SPEC.md section 9: the signed-out notice stays 3 seconds. */
export const LOGIN_NOTICE_MS = 3000;
export const LOGIN_NOTICE_TEXT = "Login required, please login to favorite experts";

type FavoriteResult = { favorited?: boolean; error?: string };

export const FAVORITE_NETWORK_ERROR = "We couldn't reach the server. Please try again.";

/**
 * The profile routes' clientAction: a heart press that fails (offline, a dropped connection, a
 * server error) becomes a message and a reverted heart, not the route's error screen.
 */
export async function favoriteClientAction({ serverAction }: ClientActionFunctionArgs) {
  try {
    return await serverAction<FavoriteResult>();
  } catch (error) {
    // A redirect (to sign in again) is still followed.
    if (error instanceof Response) throw error;
    // fetch() rejects with a TypeError when the request never completes.
    const text =
      error instanceof TypeError ? FAVORITE_NETWORK_ERROR : "Something went wrong. Please try again.";
    return { error: text } satisfies FavoriteResult;
  }
}

const sayFailed = (description: string) =>
  toast({ title: "Couldn't update your favorites", description, variant: "destructive" });

/**
 * The profile's heart. Signed in, it adds or removes the favourite at once (optimistically) and goes
 * back with a message if the server refuses. Signed out, it shows the login notice for 3 seconds.
 * Without JavaScript it is a plain form: the server signs the visitor in first, then comes back.
 */
export function FavoriteButton({
  expertName,
  favorited,
  signedIn,
  className,
}: {
  expertName: string;
  favorited: boolean;
  signedIn: boolean;
  className?: string;
}) {
  const fetcher = useFetcher<FavoriteResult>();
  const location = useLocation();
  const [notice, setNotice] = useState(false);
  // While the notice's Log in link has focus (or the pointer), it stays: it goes once they leave.
  const [noticeHeld, setNoticeHeld] = useState(false);
  const pending = fetcher.formData?.get("intent");
  const shown = pending ? pending === "favorite" : favorited;

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.error) sayFailed(fetcher.data.error);
  }, [fetcher.state, fetcher.data]);

  useEffect(() => {
    if (!notice || noticeHeld) return;
    const timer = setTimeout(() => setNotice(false), LOGIN_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice, noticeHeld]);

  const redirectTo = `${location.pathname}${location.search}`;
  return (
    <div className={cx("favorite", className)}>
      <fetcher.Form
        method="post"
        onSubmit={(event) => {
          if (!signedIn) {
            event.preventDefault();
            setNotice(true);
          } else if (!navigator.onLine) {
            // Offline, the press would fail before the clientAction (finding the route first).
            event.preventDefault();
            sayFailed(FAVORITE_NETWORK_ERROR);
          }
        }}
      >
        <input type="hidden" name="intent" value={shown ? "unfavorite" : "favorite"} />
        <button
          type="submit"
          className="favorite__button"
          aria-pressed={shown}
          aria-label={`Favorite ${expertName}`}
          title={shown ? "Remove from favorites" : "Add to favorites"}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path
              d="M12 20.5s-7.5-4.6-9.3-9.2C1.4 8 3.4 4.5 6.9 4.5c2 0 3.4 1.1 4.1 2.3h2c.7-1.2 2.1-2.3 4.1-2.3 3.5 0 5.5 3.5 4.2 6.8-1.8 4.6-9.3 9.2-9.3 9.2z"
              fill={shown ? "currentColor" : "none"}
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinejoin="round"
            />
          </svg>
        </button>
      </fetcher.Form>
      <div className="favorite__notice-region" role="status" aria-live="polite">
        {notice ? (
          <p
            className="favorite__notice"
            onFocus={() => setNoticeHeld(true)}
            onBlur={() => setNoticeHeld(false)}
            onMouseEnter={() => setNoticeHeld(true)}
            onMouseLeave={() => setNoticeHeld(false)}
          >
            {LOGIN_NOTICE_TEXT}. <Link to={`/auth?${new URLSearchParams({ redirectTo })}`}>Log in</Link>
          </p>
        ) : null}
      </div>
    </div>
  );
}
