import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiError, methodNotAllowed, readJson, requireApiUser } from "~/lib/api.server";
import {
  askQuestion,
  listQuestionsForAdmin,
  listQuestionsForAsker,
  parseExpertId,
  questionDeps,
} from "~/models/questions.server";
import { isAdminUser } from "~/models/users.server";
import { AskQuestionApiSchema } from "~/schemas/questions";

export const allowedMethods = ["GET", "HEAD", "POST"] as const;

const NO_STORE = { "Cache-Control": "private, no-store" };

/** GET /api/questions: the caller's own questions, or every question for an admin (SPEC.md section 7). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context, request);
  if (!isAdminUser(user)) {
    return Response.json(await listQuestionsForAsker(context.primaryDb, user.id), { headers: NO_STORE });
  }
  // Every question, newest first, a page at a time: `?page=` (anything else is page 1), and a Link to
  // the next page while there is one.
  const url = new URL(request.url);
  const asked = Number(url.searchParams.get("page") ?? 1);
  const page = Number.isSafeInteger(asked) && asked >= 1 && asked <= 1_000_000 ? asked : 1;
  const { questions, hasMore } = await listQuestionsForAdmin(context.primaryDb, { filter: "all", page });
  const headers = new Headers(NO_STORE);
  headers.set("X-Has-More", String(hasMore));
  if (hasMore) headers.set("Link", `</api/questions?page=${page + 1}>; rel="next"`);
  return Response.json(questions, { headers });
}

/**
 * POST /api/questions {question, requestAudioResponse, showOnProfile, expertId?, questionId?,
 * expectedAmount?}: `expectedAmount` is the price in cents the asker was shown; another price now is
 * a 409 with reason "price_changed", never a charge they did not see.
 * Writes the question (unpaid) and its PaymentIntent and answers with the client secret the browser
 * confirms; in test mode or for a subscriber the question is accepted at once. The price is ours.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(...allowedMethods);
  const user = await requireApiUser(context, request);
  const input = await readJson(request, AskQuestionApiSchema);
  const result = await askQuestion(questionDeps(context), {
    asker: user,
    expertId: parseExpertId(input.expertId ?? null),
    ask: {
      question: input.question,
      requestAudioResponse: input.requestAudioResponse,
      showOnProfile: input.showOnProfile,
    },
    retryQuestionId: input.questionId ?? null,
    expectedAmount: input.expectedAmount ?? null,
  });
  if (result.status === "refused") {
    return apiError(result.httpStatus, result.message, result.reason ? { reason: result.reason } : {});
  }
  return Response.json(result, { status: result.status === "pending" ? 201 : 200, headers: NO_STORE });
}
