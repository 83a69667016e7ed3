import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import {
  apiError,
  apiJson,
  methodNotAllowed,
  parseOrThrow,
  readJsonObject,
  requireApiUser,
} from "~/lib/api.server";
import { getOwnExpertProfile } from "~/models/experts.server";
import {
  EXPERT_LIMITS,
  ExpertApiPricesSchema,
  ExpertSignupForUserSchema,
  expertApiValues,
} from "~/schemas/expert";
import {
  ALREADY_EXPERT_MESSAGE,
  ApiExpertTimeZoneSchema,
  checkProfileReferences,
  saveNewExpertProfile,
} from "~/services/expert-profile.server";
import { loadBrowsePage } from "~/services/read-models.server";

const ApiExpertSignupSchema = ExpertSignupForUserSchema.extend({ timeZone: ApiExpertTimeZoneSchema });

export const allowedMethods = ["GET", "HEAD", "POST"] as const;

/**
 * GET /api/experts[?q=&category=&sort=&minPrice=&maxPrice=&page=]: the browse list (SPEC.md section
 * 7), with the browse screen's query rules: anything invalid falls back to its default.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const page = await loadBrowsePage(context, new URL(request.url), {
    basePath: "/experts",
    pathCategory: null,
  });
  return apiJson(page.result.experts, {
    headers: { "X-Total-Count": String(page.result.total), "X-Page-Count": String(page.result.pageCount) },
  });
}

/**
 * POST /api/experts (SPEC.md section 7's expert creation payload): the signed-in user becomes an
 * expert, with the sign-up wizard's rules (prices in integer cents, defaulting to the wizard's $10 and
 * $50; `termsAgreed: true` required). `userId`, when sent, must be the caller's own. `isTopExpert` is
 * never taken from the body (admins feature experts) and images are uploaded afterwards with
 * /api/experts/{id}/upload/profile and /upload/header. `timeZone` (an IANA name, as Availability
 * takes it) is the zone of the weekly schedule, UTC when left out. 409 when the user already is an
 * expert or the custom URL is taken.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(...allowedMethods);
  const user = await requireApiUser(context, request);
  const body = await readJsonObject(request);
  if (body.userId !== undefined && body.userId !== user.id) {
    return apiError(403, "You can only create your own expert profile.");
  }
  if (user.expertProfile) return apiError(409, ALREADY_EXPERT_MESSAGE);
  parseOrThrow(ExpertApiPricesSchema, body);
  const input = parseOrThrow(ApiExpertSignupSchema, {
    questionRate: EXPERT_LIMITS.defaultQuestionRateDollars,
    sessionPrice: EXPERT_LIMITS.defaultSessionPriceDollars,
    ...expertApiValues(body),
  });
  const categories = await checkProfileReferences(context.primaryDb, input);
  if (!categories.ok) {
    return apiError(categories.status, categories.message, {
      ...(categories.field ? { fieldErrors: { [categories.field]: [categories.message] } } : {}),
    });
  }
  const saved = await saveNewExpertProfile(context, {
    userId: user.id,
    profile: input,
    timeZone: input.timeZone,
    categories,
  });
  if (!saved.ok) {
    return apiError(saved.status, saved.message, {
      ...(saved.field ? { fieldErrors: { [saved.field]: [saved.message] } } : {}),
    });
  }
  return apiJson(await getOwnExpertProfile(context.primaryDb, { userId: user.id }), { status: 201 });
}
