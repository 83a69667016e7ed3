import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import * as z from "zod";
import { apiError, readJson, requireApiUser } from "~/lib/api.server";
import { parseId, setAvailableForBookings } from "~/models/bookings.server";
import { invalidateExpert } from "~/services/cache.server";

const AvailabilityPatchSchema = z.strictObject(
  { isAvailable: z.boolean({ error: "isAvailable must be true or false." }) },
  { error: "Only isAvailable can be changed here; edit the rest of your profile in Settings." },
);

/**
 * PATCH /api/experts/{id} {isAvailable} (SPEC.md section 7): the portal's Available / Unavailable
 * switch, for the expert's own profile only (403 otherwise). Unavailable hides the booking calendar
 * from new clients; sessions already booked stay. The public profile's cached data is refreshed.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "PATCH") return apiError(405, "Method not allowed");
  const user = await requireApiUser(context, request);
  const expertId = parseId(params.id);
  if (expertId === null) return apiError(404, "Expert not found");
  if (user.expertProfile?.id !== expertId) return apiError(403, "You can only change your own profile.");
  const { isAvailable } = await readJson(request, AvailabilityPatchSchema);
  const saved = await setAvailableForBookings(context.primaryDb, {
    expertId,
    isAvailable,
    now: new Date(context.now()),
  });
  if (!saved) return apiError(404, "Expert not found");
  await invalidateExpert(context.cache, { id: expertId, customUrls: [saved.customUrl] });
  return Response.json(
    { id: expertId, isAvailable: Boolean(saved.isAvailable) },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const loader = () => apiError(405, "Method not allowed");
