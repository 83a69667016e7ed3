import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import {
  apiError,
  apiJson,
  methodNotAllowed,
  parseOrThrow,
  readJsonObject,
  requireApiUser,
} from "~/lib/api.server";
import { bookingDeps, createBooking } from "~/models/bookings.server";
import { askQuestion, parseExpertId, questionDeps } from "~/models/questions.server";
import { SessionPaymentIntentSchema } from "~/schemas/bookings";
import { QuestionPaymentIntentSchema } from "~/schemas/questions";

export const allowedMethods = ["POST"] as const;

/**
 * POST /api/create-payment-intent (SPEC.md section 7) -> {clientSecret}. DESIGN.md: nothing paid is
 * lost, so a PaymentIntent is never made for nothing: the call writes the unpaid question
 * (`type: "question"`, the default, with the question's fields) or holds the session
 * (`type: "session"`, with the booking's fields) exactly as POST /api/questions and POST
 * /api/bookings do, and answers with the PaymentIntent's client secret. The amount is the expert's
 * rate or session price, whatever `amount` says; `expectedAmount`, the price the caller was shown, is
 * checked as those two calls check it (another price now is a 409, reason "price_changed"). In test mode there is no payment: clientSecret is
 * null and the question or booking is accepted at once.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(...allowedMethods);
  const user = await requireApiUser(context, request);
  const body = await readJsonObject(request);
  if (body.type !== undefined && body.type !== "question" && body.type !== "session") {
    const message = 'type must be "question" or "session"';
    return apiError(400, message, { fieldErrors: { type: [message] } });
  }

  if (body.type === "session") {
    const input = parseOrThrow(SessionPaymentIntentSchema, body);
    const result = await createBooking(bookingDeps(context), {
      booker: user,
      booking: {
        expertId: input.expertId,
        date: input.date,
        time: input.time,
        timeZone: input.timeZone ?? null,
        name: input.name,
        email: input.email,
        message: input.message,
        retryBookingId: input.bookingId ?? null,
        expectedAmount: input.expectedAmount ?? null,
      },
    });
    if (result.status === "refused") {
      return apiError(result.httpStatus, result.message, {
        ...(result.reason ? { reason: result.reason } : {}),
        ...(result.field ? { fieldErrors: { [result.field]: [result.message] } } : {}),
        ...(result.slots ? { slots: result.slots } : {}),
      });
    }
    return apiJson({
      type: "session",
      bookingId: result.bookingId,
      status: result.status,
      clientSecret: result.status === "requires_payment" ? result.clientSecret : null,
      paymentIntentId: result.status === "requires_payment" ? result.paymentIntentId : null,
      amount: result.status === "requires_payment" ? result.amount : null,
    });
  }

  const input = parseOrThrow(QuestionPaymentIntentSchema, body);
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
  return apiJson({
    type: "question",
    questionId: result.questionId,
    status: result.status,
    clientSecret: result.status === "requires_payment" ? result.clientSecret : null,
    paymentIntentId: result.status === "requires_payment" ? result.paymentIntentId : null,
    amount: result.status === "requires_payment" ? result.amount : null,
  });
}

export const loader = () => methodNotAllowed(...allowedMethods);
