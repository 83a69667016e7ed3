import { parseWithZod } from "@conform-to/zod/v4";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useFetcher, useLoaderData, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { requireAdmin, requireAdminForAction } from "~/auth/guards.server";
import { AdminFrame } from "~/components/admin-frame";
import { dropRepeatClick } from "~/components/drop-repeat-click";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { Pagination } from "~/components/pagination";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/field";
import { toast } from "~/components/ui/toast";
import { useFocusFallback } from "~/components/use-focus-fallback";
import { publicProfilePath } from "~/lib/expert-urls";
import { firstFieldError, readForm } from "~/lib/form-data.server";
import { formatDay } from "~/lib/format-date";
import { redirectPastLastPage, requestedPage } from "~/lib/pagination.server";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";
import { listExpertsForAdmin, setExpertFeatured, setExpertVerified } from "~/models/experts.server";
import { ADMIN_EXPERT_FILTERS, AdminExpertActionSchema, type AdminExpertFilter } from "~/schemas/expert";
import { invalidateExpert } from "~/services/cache.server";
import adminHref from "~/styles/admin-experts.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminHref }];

export const meta: MetaFunction = () => [
  { title: "Experts | Admin" },
  { name: "robots", content: "noindex" },
];

const FILTER_LABELS: Record<AdminExpertFilter, string> = {
  all: "All",
  unverified: "Awaiting verification",
  verified: "Verified",
  featured: "Featured",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(context, request);
  const url = new URL(request.url);
  const requested = url.searchParams.get("filter");
  const filter = (ADMIN_EXPERT_FILTERS as readonly string[]).includes(requested ?? "")
    ? (requested as AdminExpertFilter)
    : "all";
  const search = [...(url.searchParams.get("q") ?? "")].slice(0, 100).join("");
  const list = await listExpertsForAdmin(context.primaryDb, {
    filter,
    search,
    page: requestedPage(url),
  });
  redirectPastLastPage(url, list);
  return { signedInAs: user.name ?? user.username, filter, search, ...list };
}

const DONE: Record<string, string> = {
  verify: "Expert verified",
  unverify: "Verification removed",
  feature: "Expert featured",
  unfeature: "Expert no longer featured",
};

/** Verify / unverify and feature / unfeature. Admins only: anyone else gets 403 and nothing changes. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireAdminForAction(context, request);
  const submission = parseWithZod(await readForm(request), { schema: AdminExpertActionSchema });
  if (submission.status !== "success") {
    // The schema's own message: "Unknown expert." for a bad id, "Unknown action." for a bad intent.
    const message = firstFieldError(submission.error, "Unknown action.");
    return data({ ok: false, message, expertId: null }, { status: 400 });
  }
  const { intent, expertId } = submission.value;
  const now = new Date(context.now());
  const changed =
    intent === "verify" || intent === "unverify"
      ? await setExpertVerified(context.primaryDb, { expertId, verified: intent === "verify", now })
      : await setExpertFeatured(context.primaryDb, { expertId, featured: intent === "feature", now });
  if (!changed)
    return data({ ok: false, message: "That expert no longer exists.", expertId }, { status: 404 });
  if (changed === "unverified") {
    return data({ ok: false, message: "Only a verified expert can be featured.", expertId }, { status: 409 });
  }
  // The profile's Verified Expert mark and the home page's featured list change at once.
  await invalidateExpert(context, { id: changed.id, customUrls: [changed.customUrl] });
  return { ok: true, message: DONE[intent], expertId };
}

export const clientAction = keepFormWhenOffline;
export const shouldRevalidate = revalidateUnlessUnreachable;

export default function AdminExperts() {
  const { signedInAs, filter, search, experts, total, page, pageSize } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const linkFor = (changes: Record<string, string | null>) => {
    const params = new URLSearchParams(searchParams);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) params.delete(key);
      else params.set(key, value);
    }
    const query = params.toString();
    return query ? `?${query}` : ".";
  };
  return (
    <AdminFrame signedInAs={signedInAs}>
      <section className="stack" aria-labelledby="experts-title">
        <div className="admin-toolbar">
          <h2 id="experts-title" tabIndex={-1}>
            Experts
          </h2>
          <Form method="get" className="admin-search" role="search">
            {filter !== "all" ? <input type="hidden" name="filter" value={filter} /> : null}
            <Label htmlFor="expert-search" className="visually-hidden">
              Search experts
            </Label>
            <Input
              id="expert-search"
              name="q"
              type="search"
              defaultValue={search}
              placeholder="Search experts"
            />
            <Button type="submit" variant="secondary">
              Search
            </Button>
          </Form>
        </div>
        <nav aria-label="Filter experts" className="filter-pills">
          {ADMIN_EXPERT_FILTERS.map((key) => (
            <Link
              key={key}
              to={linkFor({ filter: key === "all" ? null : key, page: null })}
              className="filter-pill"
              aria-current={filter === key ? "page" : undefined}
            >
              {FILTER_LABELS[key]}
            </Link>
          ))}
        </nav>
        <p className="muted" aria-live="polite">
          {total} expert{total === 1 ? "" : "s"}
          {search ? ` matching “${search}”` : ""}
        </p>
        {experts.length === 0 ? (
          <p className="card empty-state">No experts found.</p>
        ) : (
          <ul className="admin-expert-list">
            {experts.map((expert) => (
              <ExpertRow key={expert.id} expert={expert} />
            ))}
          </ul>
        )}
        <Pagination
          page={page}
          pageSize={pageSize}
          total={total}
          hrefFor={(n) => linkFor({ page: String(n) })}
        />
      </section>
    </AdminFrame>
  );
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["experts"][number];

function ExpertRow({ expert }: { expert: Row }) {
  const fetcher = useFetcher<typeof action>();
  const pendingIntent = fetcher.state !== "idle" ? fetcher.formData?.get("intent") : null;
  // Optimistic: the row shows the change while it is saved.
  const verified =
    pendingIntent === "verify" ? true : pendingIntent === "unverify" ? false : expert.isVerified;
  const featured =
    pendingIntent === "feature"
      ? true
      : pendingIntent === "unfeature" || pendingIntent === "unverify"
        ? false
        : expert.isTopExpert;
  // Said as soon as the answer arrives, while the list reloads: a row the change filtered out (verified
  // under Unverified) is gone by the time the fetcher is idle.
  useEffect(() => {
    if (!fetcher.data) return;
    toast(
      fetcher.data.ok
        ? { title: fetcher.data.message }
        : { title: "Update failed", description: fetcher.data.message, variant: "destructive" },
    );
  }, [fetcher.data]);
  const row = useRef<HTMLLIElement>(null);
  useFocusFallback(row, "experts-title");
  const name = expert.name ?? expert.username;
  return (
    <li ref={row} className="card admin-expert">
      <div className="admin-expert__who">
        {expert.profileImage ? (
          <img className="admin-expert__avatar" src={expert.profileImage} alt="" width={48} height={48} />
        ) : (
          <span className="admin-expert__avatar admin-expert__avatar--empty" aria-hidden="true">
            {([...name][0] ?? "").toUpperCase()}
          </span>
        )}
        <div className="admin-expert__text">
          <p className="admin-expert__name">
            {name} {verified ? <span className="badge badge--verified">Verified Expert</span> : null}{" "}
            {featured ? <span className="badge badge--featured">Top Expert</span> : null}
          </p>
          <p className="admin-expert__meta">
            @{expert.username} · {expert.title ?? "No title"}
            {expert.categoryName ? ` · ${expert.categoryName}` : ""}
          </p>
          <p className="admin-expert__meta">
            Joined {formatDay(expert.createdAt)} ·{" "}
            <a href={publicProfilePath(expert)} target="_blank" rel="noreferrer">
              View profile<span className="visually-hidden"> of {name} (opens in a new tab)</span>
            </a>
          </p>
        </div>
      </div>
      <fetcher.Form method="post" className="admin-expert__actions">
        <input type="hidden" name="expertId" value={expert.id} />
        <Button
          type="submit"
          name="intent"
          value={verified ? "unverify" : "verify"}
          variant={verified ? "secondary" : "primary"}
          size="sm"
          onClick={dropRepeatClick}
          aria-label={`${verified ? "Unverify" : "Verify"} ${name}`}
        >
          {verified ? "Unverify" : "Verify"}
        </Button>
        {verified || featured ? (
          <Button
            type="submit"
            name="intent"
            value={featured ? "unfeature" : "feature"}
            variant="secondary"
            size="sm"
            onClick={dropRepeatClick}
            aria-label={`${featured ? "Unfeature" : "Feature"} ${name}`}
          >
            {featured ? "Unfeature" : "Feature"}
          </Button>
        ) : null}
      </fetcher.Form>
    </li>
  );
}
