import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiError, requireApiExpertOwner } from "~/lib/api.server";
import { type ExpertBookingStatus, listBookingsForApi, parseId } from "~/models/bookings.server";

const STATUSES: readonly ExpertBookingStatus[] = ["pending", "confirmed", "completed", "cancelled"];

/**
 * GET /api/experts/{id}/bookings[?status=confirmed] (SPEC.md section 7): an expert's sessions, for
 * that expert and admins, as with the expert's questions (403 for anyone else, clients included).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const expertId = parseId(params.id);
  if (expertId === null) return apiError(404, "Expert not found");
  await requireApiExpertOwner(context, request, expertId, { allowAdmin: true });
  const status = new URL(request.url).searchParams.get("status");
  if (status !== null && !STATUSES.includes(status as ExpertBookingStatus)) {
    return apiError(400, `status must be one of ${STATUSES.join(", ")}`);
  }
  const rows = await listBookingsForApi(context.primaryDb, {
    expertId,
    status: status as ExpertBookingStatus | null,
  });
  return Response.json(rows, { headers: { "Cache-Control": "private, no-store" } });
}
