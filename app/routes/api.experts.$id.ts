import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import {
  apiError,
  apiJson,
  methodNotAllowed,
  parseOrThrow,
  parsePathId,
  readJsonObject,
  requireApiExpertOwner,
} from "~/lib/api.server";
import * as z from "~/lib/zod";
import { setAvailableForBookings } from "~/models/bookings.server";
import { getOwnExpertProfile } from "~/models/experts.server";
import {
  EXPERT_GENERAL_FIELDS,
  EXPERT_PRICING_FIELDS,
  ExpertApiPricesSchema,
  ExpertPricingSchema,
  expertApiValues,
  makeExpertGeneralSchema,
} from "~/schemas/expert";
import { invalidateExpert } from "~/services/cache.server";
import { saveExpertGeneral, saveExpertPricing } from "~/services/expert-profile.server";
import { readExpertProfile } from "~/services/read-models.server";

export const allowedMethods = ["GET", "HEAD", "PATCH"] as const;

const NOT_FOUND = "Expert not found";

/** GET /api/experts/{id}: the public profile, as the profile page shows it (SPEC.md section 7). */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const id = parsePathId(params.id);
  const expert = id === null ? null : await readExpertProfile(context, { id });
  if (!expert) return apiError(404, NOT_FOUND);
  return apiJson(expert);
}

const AvailabilityPatchSchema = z.object({
  isAvailable: z.boolean({ error: "isAvailable must be true or false." }),
});

const KNOWN_FIELDS = new Set<string>([...EXPERT_GENERAL_FIELDS, ...EXPERT_PRICING_FIELDS, "isAvailable"]);

/**
 * PATCH /api/experts/{id} (SPEC.md section 7), for the expert's own profile only (403 otherwise):
 * - {isAvailable}: the portal's Available / Unavailable switch;
 * - any General Information fields (expertise as a list or comma-joined): merged onto the profile as
 *   it is and checked with the settings form's rules;
 * - questionRate and/or sessionPrice in integer cents, with the settings form's minimums.
 * Everything is checked before anything is saved. Answers the profile as the settings screen reads it.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed(...allowedMethods);
  const expertId = parsePathId(params.id);
  if (expertId === null) return apiError(404, NOT_FOUND);
  const user = await requireApiExpertOwner(context, request, expertId);
  const owner = { expertId, userId: user.id };
  const body = await readJsonObject(request);
  const unknown = Object.keys(body).filter((key) => !KNOWN_FIELDS.has(key));
  if (unknown.length > 0) return apiError(400, `Unknown field: ${unknown.join(", ")}`);

  const current = await getOwnExpertProfile(context.primaryDb, { userId: user.id });
  if (!current || current.id !== expertId) return apiError(404, NOT_FOUND);
  parseOrThrow(ExpertApiPricesSchema, body);
  const values = expertApiValues(body);
  const has = (fields: readonly string[]) => fields.some((field) => field in body);

  const availability = "isAvailable" in body ? parseOrThrow(AvailabilityPatchSchema, values) : null;
  const general = has(EXPERT_GENERAL_FIELDS)
    ? parseOrThrow(makeExpertGeneralSchema(current.customUrl), {
        ...Object.fromEntries(
          EXPERT_GENERAL_FIELDS.map((field) => [field, current[field] ?? undefined] as const),
        ),
        // null or "" clears a field, as an emptied box does in the settings form.
        ...Object.fromEntries(
          Object.entries(values)
            .filter(([key]) => key !== "isAvailable")
            .map(([key, value]) => [key, value === null || value === "" ? undefined : value]),
        ),
      })
    : null;
  const pricing = has(EXPERT_PRICING_FIELDS)
    ? parseOrThrow(ExpertPricingSchema, {
        questionRate: current.questionRate / 100,
        sessionPrice: current.sessionPrice / 100,
        ...Object.fromEntries(EXPERT_PRICING_FIELDS.filter((f) => f in values).map((f) => [f, values[f]])),
      })
    : null;
  if (!availability && !general && !pricing) return apiError(400, "Nothing to change");

  for (const save of [
    general && (() => saveExpertGeneral(context, owner, general)),
    pricing && (() => saveExpertPricing(context, owner, pricing)),
  ]) {
    if (!save) continue;
    const saved = await save();
    if (!saved.ok) {
      return apiError(saved.status, saved.message, {
        ...(saved.field ? { fieldErrors: { [saved.field]: [saved.message] } } : {}),
      });
    }
  }
  if (availability) {
    const saved = await setAvailableForBookings(context.primaryDb, {
      expertId,
      isAvailable: availability.isAvailable,
      now: new Date(context.now()),
    });
    if (!saved) return apiError(404, NOT_FOUND);
    await invalidateExpert(context, { id: expertId, customUrls: [saved.customUrl] });
    if (!general && !pricing) return apiJson({ id: expertId, isAvailable: Boolean(saved.isAvailable) });
  }
  const updated = await getOwnExpertProfile(context.primaryDb, { userId: user.id });
  return apiJson({ ...updated, isAvailable: availability?.isAvailable ?? undefined });
}
