import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { cx } from "~/components/ui/cx";
import { useHydrated } from "~/components/use-hydrated";
import type { NewsletterResult } from "~/schemas/newsletter";

// The footer is on every page; its schema (and zod) loads only when someone starts to subscribe.
const loadSchema = () => import("~/schemas/newsletter").then((module) => module.NewsletterSchema);

/**
 * The newsletter box. With JavaScript it posts through a fetcher and answers inline; without, the
 * browser posts to /newsletter, which redirects back here with a flash toast (or shows the error).
 */
export function NewsletterForm({
  variant = "footer",
  initialResult,
}: {
  variant?: "footer" | "page";
  /** A result rendered by the server (the /newsletter page after a no-JavaScript post). */
  initialResult?: NewsletterResult;
}) {
  const fetcher = useFetcher<NewsletterResult>();
  const location = useLocation();
  const hydrated = useHydrated();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [clientError, setClientError] = useState<string | null>(null);

  const result = fetcher.state === "idle" ? (fetcher.data ?? initialResult) : undefined;
  const error = clientError ?? (result && !result.ok ? result.error : null);
  const message = !clientError && result?.ok ? result.message : null;
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) formRef.current?.reset();
  }, [fetcher.state, fetcher.data]);

  const inputId = `${id}-email`;
  const messageId = `${id}-message`;
  const redirectTo = `${location.pathname}${location.search}`;

  return (
    <div className={cx("newsletter", variant === "page" && "newsletter--page")}>
      <fetcher.Form
        ref={formRef}
        method="post"
        action="/newsletter"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (busy) return;
          const form = event.currentTarget;
          const email = inputRef.current?.value ?? "";
          void loadSchema().then((schema) => {
            const parsed = schema.safeParse({ email });
            if (!parsed.success) {
              setClientError(parsed.error.issues[0]?.message ?? "Please enter a valid email address");
              inputRef.current?.focus();
              return;
            }
            setClientError(null);
            fetcher.submit(form);
          });
        }}
      >
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {/* Tells the action whether to answer inline (fetcher) or redirect back (plain form post). */}
        <input type="hidden" name="mode" value={hydrated ? "fetch" : "document"} />
        <label htmlFor={inputId} className={variant === "page" ? "label" : "visually-hidden"}>
          Email address
        </label>
        <div className="newsletter__row">
          <input
            ref={inputRef}
            id={inputId}
            className="input"
            type="email"
            name="email"
            autoComplete="email"
            placeholder="you@example.com"
            maxLength={254}
            defaultValue={initialResult && !initialResult.ok ? initialResult.email : undefined}
            aria-invalid={error ? true : undefined}
            aria-describedby={messageId}
            onChange={() => setClientError(null)}
            onFocus={() => void loadSchema()}
          />
          {/* Not disabled while sending: a disabled button drops the focus to the page's top. */}
          <button type="submit" className="btn btn--primary" aria-disabled={busy}>
            {busy ? "Subscribing..." : "Subscribe"}
          </button>
        </div>
        <p
          id={messageId}
          className="newsletter__message"
          data-tone={error ? "error" : message ? "success" : undefined}
          role="status"
        >
          {error ?? message ?? ""}
        </p>
      </fetcher.Form>
    </div>
  );
}
