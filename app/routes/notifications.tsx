import { parseWithZod } from "@conform-to/zod/v4";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { requireUser } from "~/auth/guards.server";
import { forgetCachedUser } from "~/auth/session.server";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { Button } from "~/components/ui/button";
import { useFocusKeeper } from "~/components/use-focus-keeper";
import { useViewerTimeZone } from "~/components/use-viewer-time-zone";
import { readForm } from "~/lib/form-data.server";
import { requestedPage } from "~/lib/pagination.server";
import { formatDateTime } from "~/lib/questions";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";
import {
  listNotifications,
  markNotificationsRead,
  NOTIFICATIONS_SHOWN,
  openNotification,
} from "~/models/notifications.server";
import { NotificationActionSchema } from "~/schemas/notifications";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import href from "~/styles/scheduled.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href }];

export const meta: MetaFunction = () => [
  { title: "Notifications | Expert Answers" },
  { name: "robots", content: "noindex" },
];

export const headers = () => ({ "Cache-Control": PRIVATE_CACHE_CONTROL });

/** Only paths inside the app become links. */
const isAppPath = (link: string | null): link is string =>
  Boolean(link?.startsWith("/") && !link.startsWith("//"));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  // A page of 100 at a time, newest first; one more is read to know whether older ones exist.
  const page = requestedPage(new URL(request.url));
  const rows = await listNotifications(context.primaryDb, user.id, {
    limit: NOTIFICATIONS_SHOWN + 1,
    offset: (page - 1) * NOTIFICATIONS_SHOWN,
  });
  if (rows.length === 0 && page > 1) throw redirect("/notifications");
  return data(
    {
      // All of them, as the bell counts: an unread one on another page still counts.
      unread: user.unreadNotifications,
      page,
      hasOlder: rows.length > NOTIFICATIONS_SHOWN,
      notifications: rows.slice(0, NOTIFICATIONS_SHOWN).map((row) => ({
        id: row.id,
        kind: row.kind,
        title: row.title,
        body: row.body,
        link: isAppPath(row.link) ? row.link : null,
        read: row.readAt !== null,
        createdAt: row.createdAt.getTime(),
      })),
    },
    { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } },
  );
}

/** Mark one notification read, or all; only ever the signed-in person's own. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  const submission = parseWithZod(await readForm(request), { schema: NotificationActionSchema });
  if (submission.status !== "success") {
    return data({ ok: false, error: "Unknown action." }, { status: 400 });
  }
  if (submission.value.intent === "open") {
    const link = await openNotification(context.primaryDb, {
      userId: user.id,
      id: submission.value.notificationId,
      now: new Date(context.now()),
    });
    return redirect(isAppPath(link) ? link : "/notifications");
  }
  const changed = await markNotificationsRead(context.primaryDb, {
    userId: user.id,
    id: submission.value.intent === "read" ? submission.value.notificationId : undefined,
    now: new Date(context.now()),
  });
  // The unread count came with the session's user, read before this: a form posted without
  // JavaScript renders the page (and its bell) in this same request.
  forgetCachedUser(context);
  return { ok: true, changed };
}

export const clientAction = keepFormWhenOffline;
export const shouldRevalidate = revalidateUnlessUnreachable;

export default function Notifications() {
  useFocusKeeper();
  const { notifications, unread, page, hasOlder } = useLoaderData<typeof loader>();
  const timeZone = useViewerTimeZone();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <div className="page stack-lg">
      <header className="page-header">
        <div>
          <h1>Notifications</h1>
          <p className="muted" aria-live="polite">
            {unread === 0 ? "You're all caught up." : `${unread} unread`}
          </p>
        </div>
        {unread > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value="read-all" />
            <Button type="submit" variant="secondary" size="sm" disabled={busy}>
              Mark all as read
            </Button>
          </Form>
        ) : null}
      </header>
      {notifications.length === 0 ? (
        <p className="card empty-state">
          No notifications yet. Answers, bookings and reminders will show up here.
        </p>
      ) : (
        <ul className="notification-list">
          {notifications.map((item) => (
            <li
              key={item.id}
              className="card notification"
              data-unread={!item.read}
              data-focus-fallback={`notification-${item.id}`}
            >
              <div className="notification__head">
                <h2 className="notification__title" id={`notification-${item.id}`} tabIndex={-1}>
                  {item.read ? null : <span className="visually-hidden">Unread: </span>}
                  {item.title}
                </h2>
                <time className="muted" dateTime={new Date(item.createdAt).toISOString()}>
                  {formatDateTime(item.createdAt, timeZone)}
                </time>
              </div>
              <p className="notification__body">{item.body}</p>
              <div className="row">
                {item.link && item.read ? (
                  <Link
                    to={item.link}
                    className="btn btn--secondary btn--sm"
                    aria-label={`Open: ${item.title}`}
                  >
                    Open
                  </Link>
                ) : item.link ? (
                  // Opening an unread notification reads it on the way.
                  <Form method="post">
                    <input type="hidden" name="intent" value="open" />
                    <input type="hidden" name="notificationId" value={item.id} />
                    <Button
                      type="submit"
                      variant="secondary"
                      size="sm"
                      disabled={busy}
                      aria-label={`Open: ${item.title}`}
                    >
                      Open
                    </Button>
                  </Form>
                ) : null}
                {item.read ? null : (
                  <Form method="post">
                    <input type="hidden" name="intent" value="read" />
                    <input type="hidden" name="notificationId" value={item.id} />
                    <Button
                      type="submit"
                      variant="ghost"
                      size="sm"
                      disabled={busy}
                      aria-label={`Mark as read: ${item.title}`}
                    >
                      Mark as read
                    </Button>
                  </Form>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {page > 1 || hasOlder ? (
        <nav className="row" aria-label="Notification pages">
          {page > 1 ? (
            <Link to={page === 2 ? "/notifications" : `/notifications?page=${page - 1}`}>
              Newer notifications
            </Link>
          ) : null}
          {hasOlder ? <Link to={`/notifications?page=${page + 1}`}>Older notifications</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}
