import { Link } from "@remix-run/react";
import { buttonClass } from "./ui/button";

/** Previous / Next links with "Page n of m"; nothing when everything fits on one page. */
export function Pagination({
  page,
  pageSize,
  total,
  hrefFor,
}: {
  page: number;
  pageSize: number;
  total: number;
  hrefFor: (page: number) => string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pages" className="pagination">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className={buttonClass({ variant: "secondary", size: "sm" })} rel="prev">
          Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="muted">
        Page {Math.min(page, pages)} of {pages}
      </span>
      {page < pages ? (
        <Link to={hrefFor(page + 1)} className={buttonClass({ variant: "secondary", size: "sm" })} rel="next">
          Next
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
