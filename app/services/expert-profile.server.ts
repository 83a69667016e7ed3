/**
 * Saving an expert profile, shared by the screens (/expert/settings, /become-expert) and the JSON API
 * (PATCH and POST /api/experts): the rules that need the database (known categories, a free custom
 * URL) and what must follow a change (cache invalidation, the session's cached user). The callers
 * parse their input with the shared zod schemas first.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { forgetCachedUser } from "~/auth/session.server";
import { canonicalTimeZone } from "~/lib/slots";
import {
  AlreadyExpertError,
  CustomUrlTakenError,
  createExpertProfile,
  isCustomUrlTaken,
  type ResolvedCategories,
  resolveCategories,
  updateExpertGeneral,
  updateExpertPricing,
} from "~/models/experts.server";
import { ScheduleSchema } from "~/schemas/bookings";
import {
  CUSTOM_URL_TAKEN_MESSAGE,
  type ExpertGeneralInput,
  type ExpertPricingInput,
  type ExpertProfileInput,
  UNKNOWN_CATEGORY_MESSAGE,
} from "~/schemas/expert";
import { invalidateExpert } from "./cache.server";

type Owner = { expertId: number; userId: number };

export type ProfileRefusal = {
  ok: false;
  /** 400 bad input, 403 not the owner, 409 a conflict (custom URL taken, already an expert). */
  status: 400 | 403 | 409;
  field: "categoryId" | "expertise" | "customUrl" | null;
  message: string;
  reason: "invalid" | "not_owner" | "custom_url_taken" | "already_expert";
};

const refusal = (
  reason: ProfileRefusal["reason"],
  message: string,
  field: ProfileRefusal["field"] = null,
): ProfileRefusal => ({
  ok: false,
  status: reason === "invalid" ? 400 : reason === "not_owner" ? 403 : 409,
  field,
  message,
  reason,
});

const customUrlTaken = () => refusal("custom_url_taken", CUSTOM_URL_TAKEN_MESSAGE, "customUrl");

/** The categories and the custom URL of a profile about to be written (`expertId`: the one editing). */
export async function checkProfileReferences(
  db: AppLoadContext["primaryDb"],
  input: { categoryId: number; expertise: readonly string[]; customUrl?: string | null },
  expertId?: number,
): Promise<Extract<ResolvedCategories, { ok: true }> | ProfileRefusal> {
  const categories = await resolveCategories(db, input);
  if (!categories.ok) {
    return refusal(
      "invalid",
      categories.field === "categoryId" ? "Please select a category" : UNKNOWN_CATEGORY_MESSAGE,
      categories.field,
    );
  }
  if (input.customUrl && (await isCustomUrlTaken(db, input.customUrl, expertId))) return customUrlTaken();
  return categories;
}

/** General information of the owner's own profile (SPEC.md's edit-form rules, already parsed). */
export async function saveExpertGeneral(
  context: AppLoadContext,
  owner: Owner,
  input: ExpertGeneralInput,
): Promise<{ ok: true } | ProfileRefusal> {
  const db = context.primaryDb;
  const categories = await checkProfileReferences(db, input, owner.expertId);
  if (!categories.ok) return categories;
  let saved: Awaited<ReturnType<typeof updateExpertGeneral>>;
  try {
    saved = await updateExpertGeneral(db, owner, input, categories, new Date(context.now()));
  } catch (error) {
    if (error instanceof CustomUrlTakenError) return customUrlTaken();
    throw error;
  }
  if (!saved) return refusal("not_owner", NOT_AN_EXPERT_MESSAGE);
  // The public profile (by id and by both the old and the new address) shows the change at once.
  await invalidateExpert(context, {
    id: owner.expertId,
    customUrls: [saved.previousCustomUrl, input.customUrl],
  });
  forgetCachedUser(context);
  return { ok: true };
}

/** The owner's prices (the edit form's minimums, already parsed). */
export async function saveExpertPricing(
  context: AppLoadContext,
  owner: Owner,
  input: ExpertPricingInput,
): Promise<{ ok: true } | ProfileRefusal> {
  const saved = await updateExpertPricing(context.primaryDb, owner, input, new Date(context.now()));
  if (!saved) return refusal("not_owner", NOT_AN_EXPERT_MESSAGE);
  await invalidateExpert(context, { id: owner.expertId, customUrls: [saved.customUrl] });
  forgetCachedUser(context);
  return { ok: true };
}

/**
 * A new expert's zone when none usable was sent. The wizard sends the browser's zone once its script
 * runs; without JavaScript nothing tells us the zone, so the schedule starts in UTC, which the wizard
 * says, until the expert picks theirs under Availability (which suggests the browser's zone until a
 * schedule is saved).
 */
export const NEW_EXPERT_DEFAULT_TIME_ZONE = "UTC";

/**
 * The wizard's `timeZone` (a hidden field the person never sees): the zone's canonical name when
 * Availability would accept it, else the default. A name the browser knows and this runtime does not
 * must not block the application.
 */
export function wizardTimeZone(sent: FormDataEntryValue | null): string {
  return (typeof sent === "string" && canonicalTimeZone(sent.trim())) || NEW_EXPERT_DEFAULT_TIME_ZONE;
}

/** POST /api/experts' optional `timeZone`: Availability's rule and message, stored canonically. */
export const ApiExpertTimeZoneSchema = ScheduleSchema.shape.timeZone
  .transform((zone) => canonicalTimeZone(zone) ?? zone)
  .default(NEW_EXPERT_DEFAULT_TIME_ZONE);

/**
 * Writes a new expert profile for `userId` (the sign-up rules, already parsed, and the categories
 * checked by checkProfileReferences), then refreshes what caches it.
 */
export async function saveNewExpertProfile(
  context: AppLoadContext,
  input: {
    userId: number;
    profile: ExpertProfileInput;
    timeZone: string;
    categories: Extract<ResolvedCategories, { ok: true }>;
    profileImage?: string | null;
    headerImage?: string | null;
  },
): Promise<{ ok: true; expertId: number } | ProfileRefusal> {
  let expert: { id: number };
  try {
    expert = await createExpertProfile(context.primaryDb, input);
  } catch (error) {
    if (error instanceof AlreadyExpertError) return refusal("already_expert", ALREADY_EXPERT_MESSAGE);
    if (error instanceof CustomUrlTakenError) return customUrlTaken();
    throw error;
  }
  forgetCachedUser(context);
  await invalidateExpert(context, { id: expert.id, customUrls: [input.profile.customUrl] });
  return { ok: true, expertId: expert.id };
}

export const NOT_AN_EXPERT_MESSAGE = "You must be logged in as an expert to update your profile";
export const ALREADY_EXPERT_MESSAGE = "You already have an expert profile.";
