import { parseWithZod } from "@conform-to/zod/v4";
import { type AppLoadContext, data } from "@remix-run/cloudflare";
import { forgetCachedUser } from "~/auth/session.server";
import { getOwnExpertProfile } from "~/models/experts.server";
import { ExpertPricingSchema, makeExpertGeneralSchema } from "~/schemas/expert";
import { replaceExpertImage, UploadError } from "~/services/expert-images.server";
import {
  NOT_AN_EXPERT_MESSAGE,
  saveExpertGeneral,
  saveExpertPricing,
} from "~/services/expert-profile.server";

/** The owner, always from the session: no id in the form is ever read. */
type Owner = { expertId: number; userId: number };

export { NOT_AN_EXPERT_MESSAGE };
export const FORBIDDEN_PROFILE_MESSAGE = "You can only edit your own expert profile";

/** General Information: SPEC.md's edit-form rules, the categories, and a free custom URL. */
export async function saveGeneral(context: AppLoadContext, owner: Owner, form: FormData) {
  const current = await getOwnExpertProfile(context.primaryDb, { userId: owner.userId });
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
  const saved = await saveExpertGeneral(context, owner, submission.value);
  if (!saved.ok) {
    if (!saved.field) {
      return data(
        { intent: "general" as const, ok: false, result: null, error: saved.message },
        { status: saved.status },
      );
    }
    return data(
      {
        intent: "general" as const,
        ok: false,
        result: submission.reply({ fieldErrors: { [saved.field]: [saved.message] } }),
      },
      { status: 400 },
    );
  }
  return { intent: "general" as const, ok: true, result: submission.reply() };
}

/** Pricing: the edit form's minimums ($5.00 a question, $10.00 a session). */
export async function savePricing(context: AppLoadContext, owner: Owner, form: FormData) {
  const submission = parseWithZod(form, { schema: ExpertPricingSchema });
  if (submission.status !== "success") {
    return data({ intent: "pricing" as const, ok: false, result: submission.reply() }, { status: 400 });
  }
  const saved = await saveExpertPricing(context, owner, submission.value);
  if (!saved.ok) {
    return data(
      { intent: "pricing" as const, ok: false, result: null, error: saved.message },
      { status: saved.status },
    );
  }
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
      // The form's toast is titled "Failed to upload image"; the field says why.
      { intent, ok: false, url: null, error: error.message },
      { status: error.status },
    );
  }
}
