import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useNavigation,
  useRouteLoaderData,
} from "@remix-run/react";
import { type MouseEvent, type ReactNode, useEffect, useRef } from "react";
import { errorTitle, GeneralErrorBoundary } from "~/components/error-boundary";
import { useNonce } from "~/components/nonce";
import { seo } from "~/components/seo";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { ServerToast, Toaster } from "~/components/ui/toast";
import { HydrationMarker } from "~/components/use-hydrated";
import { bootAfterPaintScript } from "~/lib/boot-after-paint";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";
import appStylesHref from "~/styles/app.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appStylesHref },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = ({ error }: { error?: unknown }) =>
  error
    ? seo(errorTitle(error), "Expert Answers: on-demand answers from verified experts.")
    : seo("Expert Answers", "Get answers from verified experts within 24 hours.");

export async function loader(args: LoaderFunctionArgs) {
  // Imported when called rather than at the top: the browser build keeps each top-level import of a
  // server-only module as an empty stub module on every page, and the public pages' script budget has
  // no bytes for three of them.
  const { loadShell } = await import("~/services/shell.server");
  return loadShell(args);
}

export const shouldRevalidate = revalidateUnlessUnreachable;

/** A route opts out of the public header and footer with `export const handle = { shell: "bare" }`. */
export type RouteHandle = { shell?: "public" | "bare" };

// Marks the document before first paint so CSS can collapse the mobile menu only when JS will run.
// It also sets zod's global config (which zod reads from globalThis.__zod_globalConfig) to jitless
// before any module runs: ~/lib/zod sets it too, but a route's schema chunk may be evaluated before
// the chunk holding that call, and zod would then probe eval, which the CSP forbids.
// Then it schedules the app's JavaScript to load after the first paint (~/lib/boot-after-paint).
const markJs = `document.documentElement.classList.add('js');(globalThis.__zod_globalConfig??={}).jitless=true;${bootAfterPaintScript}`;

export function Layout({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const matches = useMatches();
  const bare = matches.some((match) => (match.handle as RouteHandle | undefined)?.shell === "bare");
  // Inline scripts run only with this response's Content-Security-Policy nonce (workers/security-headers.ts).
  const nonce = useNonce();
  // A page is loading: the current one fades (after a moment, in CSS) so the click shows.
  const loading = useNavigation().state === "loading";

  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant one-liner, no user input */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: markJs }} />
        <Meta />
        <Links />
      </head>
      <body>
        {/* biome-ignore lint/a11y/useValidAnchor: a real link to the content, which works before the script runs; the click only keeps it out of the history */}
        <a className="skip-link" href="#main-content" onClick={skipToContent}>
          Skip to content
        </a>
        {bare ? null : <SiteHeader user={root?.user ?? null} />}
        <main id="main-content" className="site-main" tabIndex={-1} aria-busy={loading || undefined}>
          <ServerToast toast={root?.toast} className="container" />
          {children}
        </main>
        {bare ? null : <SiteFooter />}
        <Toaster />
        <HydrationMarker />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * Focus and show the main content without a history entry: a bare fragment's entry is one the app's
 * router has not numbered, so it could neither hold nor measure a Back over it (askBeforeLeaving).
 */
function skipToContent(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById("main-content");
  if (!main) return;
  event.preventDefault();
  main.focus({ preventScroll: true });
  main.scrollIntoView();
}

export default function App() {
  useFocusOnNewPage();
  return <Outlet />;
}

/**
 * After an in-app move to another page, focus goes to its heading, where a page load would leave a
 * screen reader: otherwise it stays on the link pressed in the header, or drops to the body with the
 * button that went away, and nothing says the page changed. Focus already in the page's content (its
 * own tabs, a field) stays where it is. A link to a section (the header's /#faq, the id of its
 * heading) focuses it instead, also on the same page: the browser scrolls there but leaves focus
 * behind, so the next Tab went back to the top.
 */
function useFocusOnNewPage() {
  const { pathname, hash } = useLocation();
  const shown = useRef(pathname + hash);
  useEffect(() => {
    if (shown.current === pathname + hash) return;
    shown.current = pathname + hash;
    const main = document.getElementById("main-content");
    const section = hash ? document.getElementById(hash.slice(1)) : null;
    if (!main || (!section && main.contains(document.activeElement))) return;
    // A link to a section names its heading (the home page's /#faq); the skip link names main.
    const heading = section ?? main.querySelector("h1");
    if (heading) heading.tabIndex = -1;
    (heading ?? main).focus({ preventScroll: true });
  }, [pathname, hash]);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
