import { parseWithZod } from "@conform-to/zod/v4";
import { type AppLoadContext, data } from "@remix-run/cloudflare";
import { forgetCachedUser } from "~/auth/session.server";
import {
  CustomUrlTakenError,
  getOwnExpertProfile,
  isCustomUrlTaken,
  resolveCategories,
  updateExpertGeneral,
  updateExpertPricing,
} from "~/models/experts.server";
import {
  CUSTOM_URL_TAKEN_MESSAGE,
  ExpertPricingSchema,
  makeExpertGeneralSchema,
  UNKNOWN_CATEGORY_MESSAGE,
} from "~/schemas/expert";
import { invalidateExpert } from "~/services/cache.server";
import { replaceExpertImage, UploadError } from "~/services/expert-images.server";

/** The owner, always from the session: no id in the form is ever read. */
type Owner = { expertId: number; userId: number };

export const NOT_AN_EXPERT_MESSAGE = "You must be logged in as an expert to update your profile";
export const FORBIDDEN_PROFILE_MESSAGE = "You can only edit your own expert profile";

/** General Information: SPEC.md's edit-form rules, the categories, and a free custom URL. */
export async function saveGeneral(context: AppLoadContext, owner: Owner, form: FormData) {
  const db = context.primaryDb;
  const current = await getOwnExpertProfile(db, { userId: owner.userId });
  if (!current || current.id !== owner.expertId) {
    return data(
      { intent: "general" as const, ok: false, result: null, error: NOT_AN_EXPERT_MESSAGE },
      { status: 403 },
    );
  }
  const submission = parseWithZod(form, { schema: makeExpertGeneralSchema(current.customUrl) });
  if (submission.status !== "success") {
    return data({ intent: "general" as const, ok: false, result: submission.reply() }, { status: 400 });
  }
  const input = submission.value;
  const fieldError = (name: string, message: string) =>
    data(
      {
        intent: "general" as const,
        ok: false,
        result: submission.reply({ fieldErrors: { [name]: [message] } }),
      },
      { status: 400 },
    );
  const categories = await resolveCategories(db, {
    categoryId: input.categoryId,
    expertise: input.expertise,
  });
  if (!categories.ok) {
    return fieldError(
      categories.field,
      categories.field === "categoryId" ? "Please select a category" : UNKNOWN_CATEGORY_MESSAGE,
    );
  }
  if (input.customUrl && (await isCustomUrlTaken(db, input.customUrl, owner.expertId))) {
    return fieldError("customUrl", CUSTOM_URL_TAKEN_MESSAGE);
  }
  let saved: Awaited<ReturnType<typeof updateExpertGeneral>>;
  try {
    saved = await updateExpertGeneral(db, owner, input, categories, new Date(context.now()));
  } catch (error) {
    if (error instanceof CustomUrlTakenError) return fieldError("customUrl", CUSTOM_URL_TAKEN_MESSAGE);
    throw error;
  }
  if (!saved) {
    return data(
      { intent: "general" as const, ok: false, result: null, error: NOT_AN_EXPERT_MESSAGE },
      { status: 403 },
    );
  }
  // The public profile (by id and by both the old and the new address) shows the change at once.
  await invalidateExpert(context.cache, {
    id: owner.expertId,
    customUrls: [saved.previousCustomUrl, input.customUrl],
  });
  forgetCachedUser(context);
  return { intent: "general" as const, ok: true, result: submission.reply() };
}

/** Pricing: the edit form's minimums ($5.00 a question, $10.00 a session). */
export async function savePricing(context: AppLoadContext, owner: Owner, form: FormData) {
  const submission = parseWithZod(form, { schema: ExpertPricingSchema });
  if (submission.status !== "success") {
    return data({ intent: "pricing" as const, ok: false, result: submission.reply() }, { status: 400 });
  }
  const saved = await updateExpertPricing(
    context.primaryDb,
    owner,
    submission.value,
    new Date(context.now()),
  );
  if (!saved) {
    return data(
      { intent: "pricing" as const, ok: false, result: null, error: NOT_AN_EXPERT_MESSAGE },
      { status: 403 },
    );
  }
  await invalidateExpert(context.cache, { id: owner.expertId, customUrls: [saved.customUrl] });
  forgetCachedUser(context);
  return { intent: "pricing" as const, ok: true, result: submission.reply() };
}

/** Photos: a new profile or header picture for the owner's own profile. */
export async function saveImage(
  context: AppLoadContext,
  owner: Owner,
  intent: "profileImage" | "headerImage",
  form: FormData,
) {
  try {
    const stored = await replaceExpertImage(
      context,
      owner,
      intent === "profileImage" ? "profile" : "header",
      form.get("image"),
    );
    if (!stored) {
      return data({ intent, ok: false, error: NOT_AN_EXPERT_MESSAGE, url: null }, { status: 403 });
    }
    forgetCachedUser(context);
    return { intent, ok: true, url: stored.url, error: null };
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    return data(
      { intent, ok: false, url: null, error: `Failed to upload image. ${error.message}` },
      { status: error.status },
    );
  }
}
