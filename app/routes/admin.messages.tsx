import { parseWithZod } from "@conform-to/zod/v4";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { requireAdmin, requireAdminForAction } from "~/auth/guards.server";
import { AdminFrame } from "~/components/admin-frame";
import { dropRepeatClick } from "~/components/drop-repeat-click";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { Pagination } from "~/components/pagination";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { useFocusFallback } from "~/components/use-focus-fallback";
import { firstFieldError, readForm } from "~/lib/form-data.server";
import { formatDay } from "~/lib/format-date";
import { redirectPastLastPage, requestedPage } from "~/lib/pagination.server";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";
import { toSingleLine } from "~/lib/single-line";
import { listContactMessages, setContactMessageHandled } from "~/models/contact.server";
import { AdminMessageActionSchema, CONTACT_FILTERS, type ContactFilter } from "~/schemas/expert";
import adminHref from "~/styles/admin-experts.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminHref }];

export const meta: MetaFunction = () => [
  { title: "Messages | Admin" },
  { name: "robots", content: "noindex" },
];

const FILTER_LABELS: Record<ContactFilter, string> = { open: "Open", handled: "Handled", all: "All" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(context, request);
  const url = new URL(request.url);
  const requested = url.searchParams.get("filter");
  const filter = (CONTACT_FILTERS as readonly string[]).includes(requested ?? "")
    ? (requested as ContactFilter)
    : "open";
  const list = await listContactMessages(context.primaryDb, { filter, page: requestedPage(url) });
  redirectPastLastPage(url, list);
  return { signedInAs: user.name ?? user.username, filter, ...list };
}

/** Mark a contact message handled, or open again. Admins only (403 for anyone else). */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireAdminForAction(context, request);
  const submission = parseWithZod(await readForm(request), { schema: AdminMessageActionSchema });
  if (submission.status !== "success") {
    const message = firstFieldError(submission.error, "Unknown action.");
    return data({ ok: false, message }, { status: 400 });
  }
  const found = await setContactMessageHandled(context.primaryDb, {
    id: submission.value.messageId,
    handled: submission.value.intent === "handled",
    now: new Date(context.now()),
  });
  return found
    ? { ok: true, handled: submission.value.intent === "handled" }
    : data({ ok: false, message: "That message no longer exists." }, { status: 404 });
}

export const clientAction = keepFormWhenOffline;
export const shouldRevalidate = revalidateUnlessUnreachable;

export default function AdminMessages() {
  const { signedInAs, filter, messages, total, page, pageSize } = useLoaderData<typeof loader>();
  const hrefFor = (changes: { filter?: ContactFilter; page?: number }) => {
    const params = new URLSearchParams();
    const nextFilter = changes.filter ?? filter;
    if (nextFilter !== "open") params.set("filter", nextFilter);
    if (changes.page && changes.page > 1) params.set("page", String(changes.page));
    const query = params.toString();
    return query ? `?${query}` : ".";
  };
  return (
    <AdminFrame signedInAs={signedInAs}>
      <section className="stack" aria-labelledby="messages-title">
        <h2 id="messages-title" tabIndex={-1}>
          Contact messages
        </h2>
        <nav aria-label="Filter messages" className="filter-pills">
          {CONTACT_FILTERS.map((key) => (
            <Link
              key={key}
              to={hrefFor({ filter: key, page: 1 })}
              className="filter-pill"
              aria-current={filter === key ? "page" : undefined}
            >
              {FILTER_LABELS[key]}
            </Link>
          ))}
        </nav>
        <p className="muted">
          {total} message{total === 1 ? "" : "s"}
        </p>
        {messages.length === 0 ? (
          <p className="card empty-state">
            {filter === "open" ? "No open messages. Everything has been handled." : "No messages."}
          </p>
        ) : (
          <ul className="message-list">
            {messages.map((message) => (
              <MessageItem key={message.id} message={message} />
            ))}
          </ul>
        )}
        <Pagination page={page} pageSize={pageSize} total={total} hrefFor={(n) => hrefFor({ page: n })} />
      </section>
    </AdminFrame>
  );
}

type Message = ReturnType<typeof useLoaderData<typeof loader>>["messages"][number];

function MessageItem({ message }: { message: Message }) {
  const fetcher = useFetcher<typeof action>();
  const pending = fetcher.state !== "idle" ? fetcher.formData?.get("intent") : null;
  const handled = pending ? pending === "handled" : message.handledAt !== null;
  const row = useRef<HTMLLIElement>(null);
  useFocusFallback(row, "messages-title");
  // Said as soon as the answer arrives: under Open, a handled message leaves the list as it reloads.
  useEffect(() => {
    if (!fetcher.data) return;
    toast(
      fetcher.data.ok
        ? {
            title:
              "handled" in fetcher.data && !fetcher.data.handled
                ? "Message reopened"
                : "Message marked handled",
          }
        : {
            title: "Update failed",
            description: "message" in fetcher.data ? fetcher.data.message : undefined,
            variant: "destructive",
          },
    );
  }, [fetcher.data]);
  // One line: messages stored before subjects were made single-line may hold a line break.
  const reply = `mailto:${encodeURIComponent(message.email)}?subject=${encodeURIComponent(`Re: ${toSingleLine(message.subject)}`)}`;
  return (
    <li ref={row} className="card stack message" data-handled={handled}>
      <div className="message__head">
        <h3 className="message__subject">{message.subject}</h3>
        {handled ? <span className="badge badge--muted">Handled</span> : <span className="badge">Open</span>}
      </div>
      <p className="message__meta">
        From {message.name} &lt;{message.email}&gt; · {formatDay(message.createdAt)}
      </p>
      <p className="message__body">{message.message}</p>
      <div className="row">
        <a
          className="btn btn--secondary btn--sm"
          href={reply}
          aria-label={`Reply by email to ${message.name}`}
        >
          Reply by email
        </a>
        <fetcher.Form method="post">
          <input type="hidden" name="messageId" value={message.id} />
          <Button
            type="submit"
            name="intent"
            value={handled ? "open" : "handled"}
            size="sm"
            variant={handled ? "ghost" : "primary"}
            onClick={dropRepeatClick}
            aria-label={`${handled ? "Reopen" : "Mark handled"}: ${message.subject}`}
          >
            {handled ? "Reopen" : "Mark handled"}
          </Button>
        </fetcher.Form>
      </div>
    </li>
  );
}
