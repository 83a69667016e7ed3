import { Link } from "@remix-run/react";
import { StatusPage } from "~/components/status-page";
import { buttonClass } from "~/components/ui/button";

export const NOT_FOUND_TITLE = "404 Page Not Found";
export const NOT_FOUND_TEXT = "Did you forget to add the page to the router?";

/**
 * The not-found screen (SPEC.md route table). Reuse it from any route whose loader throws a 404,
 * e.g. the splat route and the one-segment expert profile route:
 *   export function ErrorBoundary() { return <GeneralErrorBoundary />; }  // renders this for 404s
 */
export function NotFound() {
  return (
    <StatusPage
      icon="?"
      title={NOT_FOUND_TITLE}
      actions={
        <>
          <Link to="/" className={buttonClass()}>
            Return to Home
          </Link>
          <Link to="/experts" className={buttonClass({ variant: "secondary" })}>
            Browse Experts
          </Link>
        </>
      }
    >
      <p className="muted">{NOT_FOUND_TEXT}</p>
    </StatusPage>
  );
}
