import { cx } from "~/components/ui/cx";
import { formatRating } from "~/lib/experts";

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
      {/* Five stars drawn by CSS (a strip cut to five stars, filled to the rating): two elements,
          not twenty SVG nodes, for each of the dozens of ratings a listing shows. */}
      <span className="star-rating__stars" aria-hidden="true">
        <span className="star-rating__fill" style={{ width: percent }} />
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
