import { Link, useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { ExpertCard } from "~/components/expert-card";
import { stopWhenOffline } from "~/components/keep-form-when-offline";
import { buttonClass } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import type { ExpertCardData } from "~/lib/experts";

/** The dashboard action's field value for "take this expert off my favourites". */
export const UNFAVORITE_INTENT = "unfavorite";

/** What the dashboard's clientAction answers a Remove that failed (null: the server was not reached). */
export type RemoveFavoriteResult = { removed?: number; error?: string } | null;

/**
 * The dashboard's Favorite Experts grid (the same cards as everywhere else), each with a Remove
 * button. A removed card is hidden at once and goes when the list reloads; if the removal fails, it
 * shows again with a message.
 */
export function FavoriteExperts({ experts }: { experts: ExpertCardData[] }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [said, setSaid] = useState("");
  // The cards whose removal is on its way (each card's own fetcher says so), for the empty state.
  const [removing, setRemoving] = useState<ReadonlySet<number>>(() => new Set());
  const markRemoving = useCallback((expertId: number, pending: boolean) => {
    setRemoving((current) => {
      if (current.has(expertId) === pending) return current;
      const next = new Set(current);
      if (pending) next.add(expertId);
      else next.delete(expertId);
      return next;
    });
  }, []);
  const shownCount = experts.filter((expert) => !removing.has(expert.id)).length;

  return (
    <section className="dashboard-section" aria-labelledby="favorite-experts">
      <div className="dashboard-section__head">
        <h2 id="favorite-experts" ref={headingRef} tabIndex={-1}>
          Favorite Experts
        </h2>
        <Link to="/experts" className={buttonClass({ variant: "secondary", size: "sm" })}>
          Browse Experts
        </Link>
      </div>
      <p className="visually-hidden" role="status">
        {said}
      </p>
      {shownCount === 0 ? (
        <div className="card empty-text">
          <p className="muted">
            You haven't added any favorite experts yet. Tap the heart on an expert's profile to keep them
            here.
          </p>
        </div>
      ) : null}
      {/* A hidden card keeps its form mounted, so a failed removal can still say so. */}
      {experts.length > 0 ? (
        <ul className="expert-grid plain-list" aria-label="Favorite experts" hidden={shownCount === 0}>
          {experts.map((expert) => (
            <FavoriteItem
              key={expert.id}
              expert={expert}
              onPendingChange={markRemoving}
              // The button goes with its card: the focus waits on the section's heading.
              onSent={() => {
                setSaid("");
                headingRef.current?.focus();
              }}
              onSettled={(removed) =>
                setSaid(
                  removed
                    ? `${expert.name} was removed from your favorite experts.`
                    : `${expert.name} is still in your favorite experts.`,
                )
              }
            />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function FavoriteItem({
  expert,
  onPendingChange,
  onSent,
  onSettled,
}: {
  expert: ExpertCardData;
  onPendingChange: (expertId: number, pending: boolean) => void;
  onSent: () => void;
  /** Said once the server has answered: removed, or (refused, not reached) still a favourite. */
  onSettled: (removed: boolean) => void;
}) {
  const fetcher = useFetcher<RemoveFavoriteResult>();
  const pending = fetcher.state !== "idle" && fetcher.formData?.get("intent") === UNFAVORITE_INTENT;
  const button = useRef<HTMLButtonElement>(null);
  // The latest callback, read by the effects below, which run only when the answer changes.
  const settled = useRef(onSettled);
  settled.current = onSettled;

  useEffect(() => {
    onPendingChange(expert.id, pending);
  }, [onPendingChange, expert.id, pending]);
  useEffect(() => () => onPendingChange(expert.id, false), [onPendingChange, expert.id]);

  // Removed: said as the answer arrives (the card is gone by the time the list has reloaded).
  useEffect(() => {
    if (fetcher.data?.removed) settled.current(true);
  }, [fetcher.data]);

  // Not removed (null: the server was not reached, which the clientAction has said): the card is
  // back, and so is the focus, on its button.
  useEffect(() => {
    if (fetcher.state !== "idle" || fetcher.data === undefined || fetcher.data?.removed) return;
    if (fetcher.data?.error) {
      toast({
        title: "Couldn't update your favorites",
        description: fetcher.data.error,
        variant: "destructive",
      });
    }
    settled.current(false);
    requestAnimationFrame(() => button.current?.focus());
  }, [fetcher.state, fetcher.data]);

  return (
    <li className="favorite-item" hidden={pending}>
      <ExpertCard expert={expert} />
      <fetcher.Form
        method="post"
        action="/dashboard?index"
        className="favorite-item__remove"
        onSubmit={(event) => {
          if (!stopWhenOffline(event)) onSent();
        }}
      >
        <input type="hidden" name="intent" value={UNFAVORITE_INTENT} />
        <input type="hidden" name="expertId" value={expert.id} />
        <button
          ref={button}
          type="submit"
          className={buttonClass({ variant: "ghost", size: "sm" })}
          aria-label={`Remove from favorites: ${expert.name}`}
        >
          Remove from favorites
        </button>
      </fetcher.Form>
    </li>
  );
}
