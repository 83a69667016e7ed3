import { Link } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { FallbackImage } from "~/components/fallback-image";
import type { CategoryData } from "~/lib/experts";

/** SPEC.md section 9: the carousel scrolls 300 px a step; its ends count within 10 px. */
export const CAROUSEL_STEP = 300;
export const CAROUSEL_TOLERANCE = 10;

/** Where a scroller stands: at its start, at its end (both when everything fits). */
export function scrollEdges(element: { scrollLeft: number; clientWidth: number; scrollWidth: number }) {
  return {
    atStart: element.scrollLeft <= CAROUSEL_TOLERANCE,
    atEnd: element.scrollLeft + element.clientWidth >= element.scrollWidth - CAROUSEL_TOLERANCE,
  };
}

function DefaultCategoryIcon() {
  return (
    <span className="category-tile__fallback" data-testid="category-fallback-icon" aria-hidden="true">
      <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true">
        <rect x="6" y="6" width="15" height="15" rx="4" fill="currentColor" />
        <rect x="27" y="6" width="15" height="15" rx="4" fill="currentColor" opacity=".6" />
        <rect x="6" y="27" width="15" height="15" rx="4" fill="currentColor" opacity=".6" />
        <rect x="27" y="27" width="15" height="15" rx="4" fill="currentColor" opacity=".35" />
      </svg>
    </span>
  );
}

/** The home page's category carousel: each category's image and name, linking to its page. */
export function CategoryCarousel({ categories }: { categories: CategoryData[] }) {
  const trackRef = useRef<HTMLUListElement>(null);
  // Before hydration the track sits at its start, so only "right" can be useful.
  const [edges, setEdges] = useState({ atStart: true, atEnd: false });

  const update = useCallback(() => {
    if (trackRef.current) setEdges(scrollEdges(trackRef.current));
  }, []);

  useEffect(() => {
    const track = trackRef.current;
    if (!track) return;
    update();
    const observer = new ResizeObserver(update);
    observer.observe(track);
    return () => observer.disconnect();
  }, [update]);

  const scroll = (direction: -1 | 1) => {
    // Smooth, or instant with reduced motion, as the track's CSS scroll-behavior says.
    trackRef.current?.scrollBy({ left: direction * CAROUSEL_STEP });
  };

  return (
    <div className="carousel">
      <div className="carousel__controls">
        <button
          type="button"
          className="carousel__button"
          aria-label="Scroll categories left"
          aria-controls="category-track"
          aria-disabled={edges.atStart}
          onClick={() => scroll(-1)}
        >
          <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
            <path
              d="M12.5 4l-6 6 6 6"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
        </button>
        <button
          type="button"
          className="carousel__button"
          aria-label="Scroll categories right"
          aria-controls="category-track"
          aria-disabled={edges.atEnd}
          onClick={() => scroll(1)}
        >
          <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
            <path
              d="M7.5 4l6 6-6 6"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
        </button>
      </div>
      <ul id="category-track" ref={trackRef} className="carousel__track plain-list" onScroll={update}>
        {categories.map((category) => (
          <li key={category.slug} className="carousel__item">
            <Link to={`/category/${category.slug}`} className="category-tile" prefetch="intent">
              <span className="category-tile__media">
                <FallbackImage
                  src={category.imageUrl}
                  alt=""
                  width={400}
                  height={240}
                  loading="lazy"
                  decoding="async"
                  className="category-tile__image"
                  fallback={<DefaultCategoryIcon />}
                />
              </span>
              <span className="category-tile__name">{category.name}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
