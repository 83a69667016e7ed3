import { Link } from "@remix-run/react";
import { ExpertAvatar } from "~/components/expert-avatar";
import { StarRating } from "~/components/star-rating";
import { buttonClass } from "~/components/ui/button";
import { cx } from "~/components/ui/cx";
import { type ExpertCardData, expertProfilePath, visibleTags } from "~/lib/experts";
import { formatCents } from "~/lib/money";

/**
 * The "Verified Expert" mark: only for experts an admin has verified (DESIGN.md). The badges' icons
 * are drawn by discovery.css, so a page of cards carries no SVG per card.
 */
export function VerifiedBadge({ label = "Verified" }: { label?: string }) {
  return <span className="badge badge--verified badge--seal">{label}</span>;
}

export function TopExpertBadge() {
  return <span className="badge badge--top badge--star">Top Expert</span>;
}

/**
 * The expert card used everywhere (home, browse, categories, favourites): photo, name, badges,
 * rating, bio clamped to 3 lines, at most 3 expertise tags then "+N more", price per question.
 */
export function ExpertCard({ expert, headingLevel = 3 }: { expert: ExpertCardData; headingLevel?: 2 | 3 }) {
  const path = expertProfilePath(expert);
  const { shown, more } = visibleTags(expert.expertise);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="expert-card card" data-expert-id={expert.id}>
      <div className="expert-card__head">
        <ExpertAvatar src={expert.profileImage} name={expert.name} size="md" />
        <div className="expert-card__identity">
          <Heading className="expert-card__name">{expert.name}</Heading>
          {expert.title ? <p className="expert-card__title">{expert.title}</p> : null}
          <StarRating rating={expert.rating} reviewCount={expert.reviewCount} />
        </div>
      </div>
      {expert.isVerified || expert.isTopExpert ? (
        <div className="expert-card__badges">
          {expert.isVerified ? <VerifiedBadge /> : null}
          {expert.isTopExpert ? <TopExpertBadge /> : null}
        </div>
      ) : null}
      <p className="expert-card__bio">{expert.bio}</p>
      {shown.length > 0 ? (
        <ul className="tag-list" aria-label="Expertise">
          {shown.map((tag) => (
            <li key={tag} className="tag">
              {tag}
            </li>
          ))}
          {more > 0 ? <li className="tag tag--more">{`+${more} more`}</li> : null}
        </ul>
      ) : null}
      <div className="expert-card__footer">
        <p className="expert-card__price">
          <strong>{formatCents(expert.questionRate)}</strong> <span>per question</span>
        </p>
        <Link
          to={path}
          className={buttonClass({ size: "sm" })}
          prefetch="intent"
          aria-label={`View Profile: ${expert.name}`}
        >
          View Profile
        </Link>
      </div>
    </article>
  );
}

/** A card-shaped placeholder shown while experts load. */
export function ExpertCardSkeleton() {
  return (
    <div className={cx("expert-card card skeleton-card")} aria-hidden="true">
      <div className="expert-card__head">
        <span className="skeleton skeleton--circle" />
        <div className="expert-card__identity">
          <span className="skeleton skeleton--line skeleton--w60" />
          <span className="skeleton skeleton--line skeleton--w40" />
        </div>
      </div>
      <span className="skeleton skeleton--line" />
      <span className="skeleton skeleton--line" />
      <span className="skeleton skeleton--line skeleton--w80" />
      <span className="skeleton skeleton--line skeleton--w40" />
    </div>
  );
}

/** A grid of cards; `loading` swaps them for `placeholders` skeletons (announced once to screen readers). */
export function ExpertGrid({
  experts,
  loading = false,
  placeholders = 6,
  label,
}: {
  experts: ExpertCardData[];
  loading?: boolean;
  placeholders?: number;
  label: string;
}) {
  if (loading) {
    return (
      <>
        <p className="visually-hidden" role="status">
          Loading experts…
        </p>
        <ul className="expert-grid plain-list" aria-busy="true" aria-label={label}>
          {Array.from({ length: placeholders }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <li key={index}>
              <ExpertCardSkeleton />
            </li>
          ))}
        </ul>
      </>
    );
  }
  return (
    <ul className="expert-grid plain-list" aria-label={label}>
      {experts.map((expert) => (
        <li key={expert.id}>
          <ExpertCard expert={expert} />
        </li>
      ))}
    </ul>
  );
}
