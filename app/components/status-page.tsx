import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { buttonClass } from "~/components/ui/button";
import { cx } from "~/components/ui/cx";

/** A centred message screen: 404, access denied, payment cancelled, thank-you. */
export function StatusPage({
  icon,
  tone = "default",
  title,
  children,
  actions,
}: {
  icon: ReactNode;
  tone?: "default" | "danger" | "success";
  title: ReactNode;
  children?: ReactNode;
  /** Defaults to a "Return to Home" link. */
  actions?: ReactNode;
}) {
  return (
    <div className="container">
      <section className="status-page card" aria-labelledby="status-title">
        <div
          className={cx("status-page__icon", tone !== "default" && `status-page__icon--${tone}`)}
          aria-hidden="true"
        >
          {icon}
        </div>
        <h1 id="status-title">{title}</h1>
        {children}
        <div className="cluster">
          {actions ?? (
            <Link to="/" className={buttonClass()}>
              Return to Home
            </Link>
          )}
        </div>
      </section>
    </div>
  );
}
