import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/auth/guards.server";
import { AdminFrame } from "~/components/admin-frame";
import { failureSubject, formatRunTime, SUMMARY_LABELS } from "~/lib/cron-runs";
import { listCronRuns } from "~/models/cron-runs.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import href from "~/styles/scheduled.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href }];

export const meta: MetaFunction = () => [
  { title: "Scheduled runs | Admin" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(context, request);
  const list = await listCronRuns(context.primaryDb);
  return data(
    { signedInAs: user.name ?? user.username, ...list },
    { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } },
  );
}

export default function AdminRuns() {
  const { signedInAs, runs, failedEmails } = useLoaderData<typeof loader>();
  return (
    <AdminFrame signedInAs={signedInAs}>
      <section className="stack" aria-labelledby="runs-title">
        <h2 id="runs-title">Scheduled runs</h2>
        <p className="muted">
          Every 5 minutes the scheduled tasks expire unanswered questions, remind experts, send meeting links,
          complete sessions, free unpaid holds, lapse ended subscriptions and send e-mail. Failed rows are
          retried by the next run.
        </p>
        {failedEmails > 0 ? (
          <p className="notice notice--danger" role="status">
            {failedEmails} e-mail{failedEmails === 1 ? " was" : "s were"} given up after repeated refusals by
            the provider.
          </p>
        ) : null}
        {runs.length === 0 ? (
          <p className="card empty-state">No runs yet. The first one starts within 5 minutes.</p>
        ) : (
          <ul className="run-list">
            {runs.map((run) => {
              const changes = Object.entries(run.summary).filter(([, count]) => count > 0);
              return (
                <li key={run.id} className="card stack run">
                  <div className="run__head">
                    <h3 className="run__when">{formatRunTime(run.startedAt)}</h3>
                    <span className="muted">
                      {run.durationMs === null ? "unfinished" : `${run.durationMs} ms`} ·{" "}
                      {run.failures.length === 0 ? (
                        <span className="badge">OK</span>
                      ) : (
                        <span className="badge badge--danger">
                          {run.failures.length} failure{run.failures.length === 1 ? "" : "s"}
                        </span>
                      )}
                    </span>
                  </div>
                  {changes.length === 0 ? (
                    <p className="muted">Nothing to do.</p>
                  ) : (
                    <ul className="run__changes" aria-label="What changed">
                      {changes.map(([key, count]) => (
                        <li key={key} className="badge badge--muted">
                          {`${SUMMARY_LABELS[key] ?? key}: ${count}`}
                        </li>
                      ))}
                    </ul>
                  )}
                  {run.failures.length > 0 ? (
                    <ul className="run__failures" aria-label="Failures">
                      {run.failures.map((failure, index) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: failures have no id of their own
                        <li key={index}>
                          <strong>{failureSubject(failure)}</strong>: {failure.message}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </AdminFrame>
  );
}
