import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireExpert } from "~/auth/guards.server";
import { toCsv } from "~/lib/csv";
import { ledgerLineStanding, listLedgerLines } from "~/models/earnings.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";

const KIND_LABELS = {
  question: "Question",
  subscription_question: "Subscription question",
  booking: "Session",
  subscription: "Subscription",
} as const;

const money = (cents: number) => (cents / 100).toFixed(2);
const isoOrEmpty = (date: Date | null) => (date ? date.toISOString() : "");

/**
 * GET /expert/earnings/export: the signed-in expert's ledger lines as CSV, one line per payment,
 * with whether each counts as earned. Only ever the caller's own lines.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { expertId } = await requireExpert(context, request);
  const lines = expertId === null ? [] : await listLedgerLines(context.primaryDb, expertId);
  const rows = [
    [
      "Date (UTC)",
      "Settled (UTC)",
      "Type",
      "Status",
      "Counts as",
      "Amount",
      "Currency",
      "Reference",
      "Client",
      "Details",
    ],
    ...lines.map((line) => [
      isoOrEmpty(line.createdAt),
      isoOrEmpty(line.settledAt),
      KIND_LABELS[line.kind],
      line.status,
      ledgerLineStanding(line),
      money(line.amount),
      line.currency.toUpperCase(),
      line.questionId ? `Question #${line.questionId}` : line.bookingId ? `Booking #${line.bookingId}` : "",
      line.clientName ?? "",
      line.question
        ? [...line.question].slice(0, 200).join("")
        : line.sessionDate
          ? `Session on ${line.sessionDate} at ${line.sessionStartTime ?? ""}`.trim()
          : "",
    ]),
  ];
  const day = new Date(context.now()).toISOString().slice(0, 10);
  // A byte-order mark, so spreadsheet programs read the file as UTF-8 (names with accents).
  return new Response(`\uFEFF${toCsv(rows)}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="earnings-${day}.csv"`,
      "Cache-Control": PRIVATE_CACHE_CONTROL,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
