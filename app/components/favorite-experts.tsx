import { Link } from "@remix-run/react";
import { ExpertGrid } from "~/components/expert-card";
import { buttonClass } from "~/components/ui/button";
import type { ExpertCardData } from "~/lib/experts";

/** The dashboard's Favorite Experts grid (the same cards as everywhere else). */
export function FavoriteExperts({ experts }: { experts: ExpertCardData[] }) {
  return (
    <section className="dashboard-section" aria-labelledby="favorite-experts">
      <div className="dashboard-section__head">
        <h2 id="favorite-experts">Favorite Experts</h2>
        <Link to="/experts" className={buttonClass({ variant: "secondary", size: "sm" })}>
          Browse Experts
        </Link>
      </div>
      {experts.length === 0 ? (
        <div className="card empty-text">
          <p className="muted">
            You haven't added any favorite experts yet. Tap the heart on an expert's profile to keep them
            here.
          </p>
        </div>
      ) : (
        <ExpertGrid experts={experts} label="Favorite experts" />
      )}
    </section>
  );
}
