import { cx } from "~/components/ui/cx";
import { formatRating } from "~/lib/experts";

const STAR_PATH = "M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z";

function Stars() {
  return (
    <>
      {[0, 1, 2, 3, 4].map((index) => (
        <svg key={index} viewBox="0 0 20 20" className="star-rating__star" aria-hidden="true">
          <path d={STAR_PATH} />
        </svg>
      ))}
    </>
  );
}

/** Five stars filled to the rating, the number, and the review count; read as one phrase. */
export function StarRating({
  rating,
  reviewCount,
  className,
  countStyle = "short",
}: {
  rating: number;
  reviewCount: number;
  className?: string;
  /** "(5)" on cards, "(5 reviews)" where there is room. */
  countStyle?: "short" | "long";
}) {
  const label =
    reviewCount > 0
      ? `Rated ${formatRating(rating)} out of 5 from ${reviewCount} ${reviewCount === 1 ? "review" : "reviews"}`
      : `Rated ${formatRating(rating)} out of 5, no reviews yet`;
  const percent = `${Math.max(0, Math.min(100, (rating / 5) * 100))}%`;
  return (
    <span className={cx("star-rating", className)} role="img" aria-label={label}>
      <span className="star-rating__stars" aria-hidden="true">
        <span className="star-rating__base">
          <Stars />
        </span>
        <span className="star-rating__fill" style={{ width: percent }}>
          <Stars />
        </span>
      </span>
      <span className="star-rating__value" aria-hidden="true">
        {formatRating(rating)}
      </span>
      <span className="star-rating__count" aria-hidden="true">
        {countStyle === "long"
          ? `(${reviewCount} ${reviewCount === 1 ? "review" : "reviews"})`
          : `(${reviewCount})`}
      </span>
    </span>
  );
}
