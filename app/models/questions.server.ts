/**
 * Paid questions (SPEC.md "Ask a question", "Expert portal Questions", "Admin"; DESIGN.md "Money and
 * payments"): asking, paying, answering by text or audio, declining, and who may see what.
 *
 * The money rules:
 * - the question row is written first (`awaiting_payment`), then its PaymentIntent (manual capture,
 *   for the amount computed here, the question's id in its metadata);
 * - it turns `pending` (paid, with its 24-hour deadline) when the server has seen the PaymentIntent
 *   authorised, by the browser's return or the webhook, whichever comes first;
 * - the payment is captured when the expert answers and cancelled when they decline, so nobody pays
 *   for an answer they did not get. A refused capture keeps the answer and is retried.
 * Test mode (no Stripe key) and subscribers skip the PaymentIntent; their questions go straight to
 * pending, and the expert's earning is still a ledger line.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import type { SessionQuery } from "~/auth/session.server";
import type { Database } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors.server";
import { personNameSql } from "~/db/person-name.server";
import { experts, payments, questions, reviews, sessions, users } from "~/db/schema.server";
import { formatCents, priceChangedMessage } from "~/lib/money";
import {
  type AdminFilter,
  DEFAULT_QUESTION_PRICE,
  DESK_PAGE_SIZE,
  OPEN_QUESTION_STATUSES,
  type QuestionStatus,
  SUBSCRIPTION_QUESTION_CREDIT,
} from "~/lib/questions";
import { notificationStatements } from "~/models/notifications.server";
import {
  CURRENCY,
  cancelPayment,
  capturePayment,
  checkPaymentIntent,
  createPaymentIntent,
  type ExpectedPayment,
  getLedgerLine,
  ledgerUpdateStatement,
  ledgerUpsertStatement,
  PAYMENT_CANCELLED_CODE,
  type PaymentSubject,
  retrievePaymentIntent,
  subscriptionCreditStatement,
  unchargedQuestionLedgerStatements,
  verifyPaymentIntent,
} from "~/models/payments.server";
import { isAdminUser, type SessionUser } from "~/models/users.server";
import { getOptionalStripe, type PaymentIntent, type StripeClient } from "~/services/stripe.server";

/** SPEC.md: an answer within 24 hours of payment. */
export const ANSWER_WINDOW_MS = 24 * 60 * 60 * 1000;

/** What the question functions need from the request: the primary database, Stripe (null in test mode), the time. */
export type QuestionDeps = { db: Database; stripe: StripeClient | null; now: Date };

/** Who is acting on a question: the asker, the expert it was asked of, or an admin. */
export type Actor = { userId: number; expertId: number | null; isAdmin: boolean };

const subjectOf = (questionId: number): PaymentSubject => ({ kind: "question", questionId });
const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * What a subscriber is told of their allowance when a question of theirs closes unanswered. Its day's
 * slot is freed, but the allowance is one question per UTC day: only a question asked today gives
 * today's question back (one that expires, 24 hours on, never does).
 */
export function subscriberAllowanceNote(subscriptionDay: string | null, now: Date) {
  return subscriptionDay === utcDay(now)
    ? "Today's question is yours to ask again."
    : "You can ask again with your next daily question.";
}
const personName = personNameSql(users);

type QuestionRow = typeof questions.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Asking

export type AskTarget = {
  expert: {
    id: number;
    userId: number;
    name: string;
    title: string | null;
    profileImage: string | null;
  } | null;
  /** What the question costs, in cents (DESIGN.md: the expert's question rate, $5.00 with no expert). */
  price: number;
};

/** Parses the expert id from the URL; anything that is not a positive integer means "no expert". */
export function parseExpertId(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === "") return null;
  const id = typeof value === "number" ? value : /^\d{1,12}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The expert a question can go to: alive, with an account that is too. */
const askTargetRows = (db: Database, expertId: number) =>
  db
    .select({
      id: experts.id,
      userId: experts.userId,
      name: personName,
      title: experts.title,
      profileImage: experts.profileImage,
      questionRate: experts.questionRate,
    })
    .from(experts)
    .innerJoin(users, eq(users.id, experts.userId))
    .where(and(eq(experts.id, expertId), isNull(experts.deletedAt), isNull(users.deletedAt)))
    .limit(1);

type AskTargetRow = Awaited<ReturnType<typeof askTargetRows>>[number];

function askTargetFrom(row: AskTargetRow | undefined): AskTarget {
  if (!row) return { expert: null, price: DEFAULT_QUESTION_PRICE };
  const { questionRate, ...expert } = row;
  return { expert, price: Math.max(questionRate, DEFAULT_QUESTION_PRICE) };
}

/** The expert a question goes to (omitted when the lookup fails, as SPEC.md says) and its price. */
export async function getAskTarget(db: Database, expertId: number | null): Promise<AskTarget> {
  if (expertId === null) return askTargetFrom(undefined);
  const [row] = await askTargetRows(db, expertId);
  return askTargetFrom(row);
}

/** What a user's subscription allows today: its state and whether today's question is used. */
const allowanceColumns = (now: Date) => ({
  status: users.subscriptionStatus,
  endDate: users.subscriptionEndDate,
  // Spelled out: drizzle writes a single-table select's columns without their table, and inside the
  // subquery a bare "id" would be the question's. Named: D1 batch results are mapped by column name.
  usedToday:
    sql<number>`exists (select 1 from questions where questions.user_id = users.id and questions.subscription_day = ${utcDay(now)})`.as(
      "used_today",
    ),
});

type AllowanceRow = { status: string | null; endDate: Date | null; usedToday: number };

function allowanceFrom(row: AllowanceRow | undefined, now: Date) {
  if (row?.status !== "active" || !row.endDate || row.endDate <= now) return null;
  const used = Boolean(row.usedToday);
  const tomorrow = new Date(`${utcDay(now)}T00:00:00.000Z`);
  tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
  return { questionsLeftToday: used ? 0 : 1, nextQuestionAt: used ? tomorrow : now };
}

export type SubscriptionAllowance = NonNullable<ReturnType<typeof allowanceFrom>>;

/** An active subscriber's allowance today (UTC), or null for everyone else. */
export async function getSubscriptionAllowance(
  db: Database,
  userId: number,
  now: Date,
): Promise<SubscriptionAllowance | null> {
  const [row] = await db.select(allowanceColumns(now)).from(users).where(eq(users.id, userId)).limit(1);
  return allowanceFrom(row, now);
}

/**
 * The Ask screen's reads, in the session lookup's D1 batch (see readWithSession): the expert and
 * price, and the signed-in user's subscription allowance, in the one round trip the screen needs to
 * know who is asking. `targetFrom` and `allowanceFrom` turn what the batch read into the answers
 * getAskTarget and getSubscriptionAllowance give.
 */
export const askScreenReads = {
  target:
    (expertId: number): SessionQuery<AskTargetRow[]> =>
    (db) =>
      askTargetRows(db, expertId),
  allowance:
    (now: Date): SessionQuery<AllowanceRow[]> =>
    (db, sessionId) =>
      db
        .select(allowanceColumns(now))
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(eq(sessions.id, sessionId))
        .limit(1),
  targetFrom: (rows: AskTargetRow[] | null) => askTargetFrom(rows?.[0]),
  allowanceFrom: (rows: AllowanceRow[] | null, now: Date) => allowanceFrom(rows?.[0], now),
};

/**
 * An unpaid question's payment form is waited for this long: the scheduled task asks Stripe about
 * it meanwhile, and it counts towards MAX_UNPAID_QUESTIONS.
 */
export const UNPAID_QUESTION_WINDOW_MS = 60 * 60 * 1000;
/** A client's questions waiting for payment at one time: each has its own PaymentIntent at Stripe. */
export const MAX_UNPAID_QUESTIONS = 3;

export const ASK_MESSAGES = {
  ownQuestion: "You can't ask yourself a question.",
  dailyLimit:
    "You have already asked today's question included in your subscription. Your next question is available tomorrow (UTC).",
  paymentInit: "Failed to initialize payment. Please try again.",
  tooManyUnpaid: `You already have ${MAX_UNPAID_QUESTIONS} questions waiting for payment. Please finish paying for one, or try again in an hour.`,
  notFound: "Question not found.",
  expertNotFound: "This expert could not be found. Please check the URL and try again.",
} as const;

export type Asker = { id: number; username: string; name: string | null; email: string };

export type AskInput = { question: string; requestAudioResponse: boolean; showOnProfile: boolean };

export type AskResult =
  | { status: "pending"; questionId: number; paymentState: "test_mode" | "subscription" | "authorized" }
  | {
      status: "requires_payment";
      questionId: number;
      paymentIntentId: string;
      clientSecret: string;
      amount: number;
    }
  | {
      status: "refused";
      httpStatus: 400 | 404 | 409 | 502;
      message: string;
      /** The price shown (`expectedAmount`) is not the price now. */
      reason?: "price_changed";
    };

/**
 * Asks a question. Subscribers use their daily question; in test mode the question is accepted
 * unpaid; otherwise it waits for payment and the answer carries the PaymentIntent's client secret.
 * `retryQuestionId` is the caller's own unpaid question to pay for again (after a declined card):
 * its text is updated and its PaymentIntent reused, so a retry never makes a second question.
 * `expectedAmount` is the price the asker was shown: a paid question at another price is refused.
 */
export async function askQuestion(
  deps: QuestionDeps,
  input: {
    asker: Asker;
    expertId: number | null;
    ask: AskInput;
    retryQuestionId?: number | null;
    expectedAmount?: number | null;
  },
): Promise<AskResult> {
  const { db, now } = deps;
  const target = await getAskTarget(db, input.expertId);
  // An expert named but gone (deleted since the page loaded): never re-routed to someone else.
  if (input.expertId !== null && !target.expert) {
    return { status: "refused", httpStatus: 404, message: ASK_MESSAGES.expertNotFound };
  }
  if (target.expert && target.expert.userId === input.asker.id) {
    return { status: "refused", httpStatus: 400, message: ASK_MESSAGES.ownQuestion };
  }

  const resent = await findJustAsked(db, input.asker.id, target.expert?.id ?? null, input.ask.question, now);
  if (resent) return { status: "pending", questionId: resent.id, paymentState: resent.paymentState };

  const allowance = await getSubscriptionAllowance(db, input.asker.id, now);
  if (allowance) {
    if (allowance.questionsLeftToday === 0) {
      return { status: "refused", httpStatus: 409, message: ASK_MESSAGES.dailyLimit };
    }
    const questionId = await insertUnpaidQuestion(db, input.asker, target, input.ask, 0, now);
    try {
      const paid = await markQuestionPaid(db, questionId, {
        now,
        paymentState: "subscription",
        subscriptionDay: utcDay(now),
        ledger: { kind: "subscription_question", amount: SUBSCRIPTION_QUESTION_CREDIT },
      });
      if (!paid) return closedBeforePaid();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Another question took today's allowance first (two at once): this one never existed.
      await db
        .delete(questions)
        .where(and(eq(questions.id, questionId), eq(questions.status, "awaiting_payment")));
      return { status: "refused", httpStatus: 409, message: ASK_MESSAGES.dailyLimit };
    }
    return { status: "pending", questionId, paymentState: "subscription" };
  }

  if (input.expectedAmount != null && input.expectedAmount !== target.price) {
    return {
      status: "refused",
      httpStatus: 409,
      message: priceChangedMessage("question", target.price),
      reason: "price_changed",
    };
  }

  if (!deps.stripe) {
    const questionId = await insertUnpaidQuestion(db, input.asker, target, input.ask, target.price, now);
    const paid = await markQuestionPaid(db, questionId, {
      now,
      paymentState: "test_mode",
      ledger: { kind: "question", amount: target.price },
    });
    if (!paid) return closedBeforePaid();
    return { status: "pending", questionId, paymentState: "test_mode" };
  }

  // A retry whose first try was paid after all (its answer was lost): that question, never a second.
  const retried = input.retryQuestionId ? await getQuestionRow(db, input.retryQuestionId) : null;
  if (
    retried &&
    retried.userId === input.asker.id &&
    retried.paymentIntentId !== null &&
    ["pending", "in_progress", "answered"].includes(retried.status)
  ) {
    return { status: "pending", questionId: retried.id, paymentState: "authorized" };
  }
  const unpaidId =
    retried?.id ?? (await sameUnpaidQuestion(db, input.asker.id, target, input.ask.question, now));
  let question = unpaidId ? await reuseUnpaidQuestion(db, unpaidId, input.asker.id, target, input.ask) : null;
  let intent: PaymentIntent | null = null;
  try {
    // Paying again: the PaymentIntent already made for it, as Stripe has it now (a saved creation
    // response would hide an authorisation, and expires after a day). A cancelled one starts afresh,
    // and its question, which can never be paid for, no longer counts as waiting for payment.
    if (question?.paymentIntentId) {
      intent = await retrievePaymentIntent(deps.stripe, question.paymentIntentId);
      if (!intent || intent.status === "canceled") {
        await dropUnpaidQuestion(db, question.id, now);
        question = null;
      }
    }
  } catch (error) {
    console.error(
      JSON.stringify({ level: "error", message: "retrieve payment intent failed", error: String(error) }),
    );
    return { status: "refused", httpStatus: 502, message: ASK_MESSAGES.paymentInit };
  }
  if (!question) {
    const id = await insertUnpaidQuestion(db, input.asker, target, input.ask, target.price, now);
    // Counted after the insert, among those written before it, so questions sent at once keep the
    // first ones and never more.
    if ((await unpaidQuestionsBefore(db, input.asker.id, id, now)) >= MAX_UNPAID_QUESTIONS) {
      await db.delete(questions).where(and(eq(questions.id, id), eq(questions.status, "awaiting_payment")));
      return { status: "refused", httpStatus: 409, message: ASK_MESSAGES.tooManyUnpaid };
    }
    question = (await getQuestionRow(db, id))!;
    intent = null;
  }

  try {
    intent ??= await createPaymentIntent(deps.stripe, {
      subject: subjectOf(question.id),
      amount: question.amount,
      userId: input.asker.id,
      captureMethod: "manual",
      description: target.expert ? `Question for ${target.expert.name}` : "Expert question",
      receiptEmail: input.asker.email,
    });
  } catch (error) {
    console.error(
      JSON.stringify({
        level: "error",
        message: "create payment intent failed",
        questionId: question.id,
        error: String(error),
      }),
    );
    // Stripe replays a saved failure for the same idempotency key, so this question could never get
    // a PaymentIntent: drop it (it was never visible and nothing was paid); a retry starts afresh.
    await db
      .delete(questions)
      .where(
        and(
          eq(questions.id, question.id),
          eq(questions.status, "awaiting_payment"),
          isNull(questions.paymentIntentId),
        ),
      );
    return { status: "refused", httpStatus: 502, message: ASK_MESSAGES.paymentInit };
  }
  if (!intent.client_secret) throw new Error(`PaymentIntent ${intent.id} has no client secret`);

  await db.batch([
    db
      .update(questions)
      .set({ paymentIntentId: intent.id })
      .where(and(eq(questions.id, question.id), isNull(questions.paymentIntentId))),
    ledgerUpsertStatement(
      db,
      {
        kind: "question",
        ref: { questionId: question.id },
        amount: question.amount,
        status: "pending",
        userId: input.asker.id,
        expertId: question.expertId,
        stripePaymentIntentId: intent.id,
      },
      { now, replaceFrom: ["pending", "failed"] },
    ),
  ]);

  // A retry after the card was already authorised (a lost response): the question is paid.
  if (intent.status === "requires_capture") {
    const confirmed = await confirmQuestionPayment(deps, {
      userId: input.asker.id,
      questionId: question.id,
      paymentIntentId: intent.id,
    });
    if (confirmed.ok) return { status: "pending", questionId: question.id, paymentState: "authorized" };
  }

  return {
    status: "requires_payment",
    questionId: question.id,
    paymentIntentId: intent.id,
    clientSecret: intent.client_secret,
    amount: question.amount,
  };
}

/**
 * A question closed between being written and being paid for: its expert closed their account (which
 * expires the unpaid questions it finds), or the asker closed theirs. Nothing was recorded as paid.
 */
const closedBeforePaid = (): AskResult => ({
  status: "refused",
  httpStatus: 404,
  message: ASK_MESSAGES.expertNotFound,
});

/** How long the same question to the same expert counts as the same form sent again. */
const RESEND_WINDOW_MS = 10 * 60 * 1000;

/**
 * The asker's question with this very text to this expert, taken in the last minutes without a card
 * (test mode, or a subscriber's day): a form sent again after its answer was lost gets that question
 * back, not a second one (nor "today's question is used"). A paid resend needs no such check: it
 * makes a PaymentIntent of its own, and the first, never paid, is swept.
 */
async function findJustAsked(db: Database, userId: number, expertId: number | null, text: string, now: Date) {
  const [row] = await db
    .select({ id: questions.id, paymentState: questions.paymentState })
    .from(questions)
    .where(
      and(
        eq(questions.userId, userId),
        gte(questions.createdAt, new Date(now.getTime() - RESEND_WINDOW_MS)),
        expertId === null ? isNull(questions.expertId) : eq(questions.expertId, expertId),
        eq(questions.question, text),
        inArray(questions.paymentState, ["test_mode", "subscription"]),
        // A question the expert declined may be asked again.
        inArray(questions.status, ["pending", "in_progress", "answered"]),
      ),
    )
    .limit(1);
  return row ? { id: row.id, paymentState: row.paymentState as "test_mode" | "subscription" } : null;
}

async function unpaidQuestionsBefore(db: Database, userId: number, questionId: number, now: Date) {
  const [row] = await db
    .select({ count: sql<number>`count(*)` })
    .from(questions)
    .where(
      and(
        eq(questions.userId, userId),
        eq(questions.status, "awaiting_payment"),
        sql`${questions.id} < ${questionId}`,
        gte(questions.createdAt, new Date(now.getTime() - UNPAID_QUESTION_WINDOW_MS)),
      ),
    );
  return Number(row?.count ?? 0);
}

async function insertUnpaidQuestion(
  db: Database,
  asker: Asker,
  target: AskTarget,
  ask: AskInput,
  amount: number,
  now: Date,
): Promise<number> {
  const [row] = await db
    .insert(questions)
    .values({
      userId: asker.id,
      expertId: target.expert?.id ?? null,
      name: asker.name ?? asker.username,
      email: asker.email,
      question: ask.question,
      requestAudioResponse: ask.requestAudioResponse,
      showOnProfile: ask.showOnProfile,
      status: "awaiting_payment",
      amount,
      currency: CURRENCY,
      paymentState: "none",
      createdAt: now,
    })
    .returning({ id: questions.id });
  return row.id;
}

/** An unpaid question that can no longer be paid for: it expires, and its ledger line is cancelled. */
function dropUnpaidQuestion(db: Database, questionId: number, now: Date) {
  return db.batch([
    db
      .update(questions)
      .set({ status: "expired", expiredAt: now, paymentState: "cancelled" })
      .where(and(eq(questions.id, questionId), eq(questions.status, "awaiting_payment"))),
    ledgerUpdateStatement(db, { questionId }, { status: "cancelled" }, { now, from: ["pending", "failed"] }),
  ]);
}

/**
 * The asker's unpaid question of the last hour with the same text to the same expert, at today's
 * price: the Ask screen sent again without its retry (a reload after a declined card) pays for it
 * rather than making another question and PaymentIntent.
 */
async function sameUnpaidQuestion(db: Database, userId: number, target: AskTarget, text: string, now: Date) {
  const [row] = await db
    .select({ id: questions.id })
    .from(questions)
    .where(
      and(
        eq(questions.userId, userId),
        eq(questions.status, "awaiting_payment"),
        target.expert ? eq(questions.expertId, target.expert.id) : isNull(questions.expertId),
        eq(questions.question, text),
        eq(questions.amount, target.price),
        isNotNull(questions.paymentIntentId),
        gte(questions.createdAt, new Date(now.getTime() - UNPAID_QUESTION_WINDOW_MS)),
      ),
    )
    .orderBy(desc(questions.id))
    .limit(1);
  return row?.id ?? null;
}

async function reuseUnpaidQuestion(
  db: Database,
  questionId: number,
  userId: number,
  target: AskTarget,
  ask: AskInput,
): Promise<QuestionRow | null> {
  const [row] = await db
    .update(questions)
    .set({
      question: ask.question,
      requestAudioResponse: ask.requestAudioResponse,
      showOnProfile: ask.showOnProfile,
    })
    .where(
      and(
        eq(questions.id, questionId),
        eq(questions.userId, userId),
        eq(questions.status, "awaiting_payment"),
        target.expert ? eq(questions.expertId, target.expert.id) : isNull(questions.expertId),
        eq(questions.amount, target.price),
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * The asker's own unpaid question to the same expert (null: a general question), for the Ask screen
 * after a payment on a bank's page failed: it fills the form again, and paying again reuses the
 * question and its PaymentIntent. Anyone else's, a paid one or one to another expert is null.
 */
export async function getUnpaidQuestionToRetry(
  db: Database,
  input: { questionId: number; userId: number; expertId: number | null },
): Promise<(AskInput & { questionId: number }) | null> {
  const [row] = await db
    .select({
      questionId: questions.id,
      question: questions.question,
      requestAudioResponse: questions.requestAudioResponse,
      showOnProfile: questions.showOnProfile,
    })
    .from(questions)
    .where(
      and(
        eq(questions.id, input.questionId),
        eq(questions.userId, input.userId),
        eq(questions.status, "awaiting_payment"),
        input.expertId === null ? isNull(questions.expertId) : eq(questions.expertId, input.expertId),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function getQuestionRow(db: Database, questionId: number): Promise<QuestionRow | null> {
  const [row] = await db.select().from(questions).where(eq(questions.id, questionId)).limit(1);
  return row ?? null;
}

/**
 * The statements that make an unpaid question pending: paid now, due in 24 hours, its ledger line,
 * and the expert told, in one batch. Only an `awaiting_payment` question changes, so a second
 * confirmation (browser and webhook both arriving) finds nothing to do; the ledger line only moves
 * forward and the notification is idempotent.
 */
function markPaidStatements(
  db: Database,
  question: Pick<QuestionRow, "id" | "userId" | "expertId" | "name">,
  recipients: NewQuestionRecipients,
  options: {
    now: Date;
    paymentState: "authorized" | "test_mode" | "subscription";
    paymentIntentId?: string;
    subscriptionDay?: string;
    ledger: { kind: "question" | "subscription_question"; amount: number };
  },
) {
  const { now } = options;
  // The ledger line and the notices are written only by the batch that made the question pending:
  // one that expired or was withdrawn meanwhile (its expert or asker closing their account) is not.
  const paidNow = questionMovedNow(question.id, "pending", now);
  const statements = [
    db
      .update(questions)
      .set({
        status: "pending",
        paymentState: options.paymentState,
        paidAt: now,
        deadlineAt: new Date(now.getTime() + ANSWER_WINDOW_MS),
        ...(options.paymentIntentId ? { paymentIntentId: options.paymentIntentId } : {}),
        ...(options.subscriptionDay ? { subscriptionDay: options.subscriptionDay } : {}),
      })
      .where(
        and(
          eq(questions.id, question.id),
          eq(questions.status, "awaiting_payment"),
          options.paymentIntentId
            ? or(isNull(questions.paymentIntentId), eq(questions.paymentIntentId, options.paymentIntentId))
            : undefined,
          // An asker who closed their account meanwhile is past the second look that withdraws questions.
          sql`not exists (select 1 from ${users} where ${users.id} = ${questions.userId} and ${users.deletedAt} is not null)`,
          // Nor one whose authorisation was released (or refunded) at Stripe before it was recorded here:
          // Stripe does not order its events, and the expert would answer for nothing.
          sql`not exists (select 1 from ${payments} where ${payments.questionId} = ${question.id} and ${payments.status} in ('cancelled', 'refunded'))`,
        ),
      )
      .returning({ id: questions.id }),
    ledgerUpsertStatement(
      db,
      {
        kind: options.ledger.kind,
        ref: { questionId: question.id },
        amount: options.ledger.amount,
        status: "authorized",
        userId: question.userId,
        expertId: question.expertId,
        stripePaymentIntentId: options.paymentIntentId ?? null,
      },
      { now, replaceFrom: ["pending", "failed"], when: paidNow },
    ),
  ] as const;
  const asker = question.name ?? "A client";
  const [body, link] =
    recipients.kind === "expert"
      ? [`${asker} asked you a question. Answer within 24 hours.`, "/expert/questions"]
      : [
          `${asker} asked a general question, for any expert. Answer within 24 hours.`,
          `/admin?filter=pending&question=${question.id}`,
        ];
  return [
    ...statements,
    ...recipients.userIds.flatMap((userId) =>
      notificationStatements(
        db,
        {
          userId,
          kind: "question_new",
          title: "New question",
          body,
          link,
          dedupeKey: `question_new:question:${question.id}`,
        },
        { when: paidNow },
      ),
    ),
  ];
}

type NewQuestionRecipients = { kind: "expert" | "admins"; userIds: number[] };

/**
 * Who hears of a newly paid question: its expert; for a general question (no expert), every admin,
 * since admins answer those and nothing else would tell them one is waiting.
 */
async function newQuestionRecipients(db: Database, expertId: number | null): Promise<NewQuestionRecipients> {
  if (expertId === null) {
    const admins = await db
      .select({ id: users.id })
      .from(users)
      .where(and(or(eq(users.isAdmin, true), eq(users.role, "admin")), isNull(users.deletedAt)));
    return { kind: "admins", userIds: admins.map((admin) => admin.id) };
  }
  const [row] = await db
    .select({ userId: experts.userId })
    .from(experts)
    .where(eq(experts.id, expertId))
    .limit(1);
  return { kind: "expert", userIds: row ? [row.userId] : [] };
}

async function markQuestionPaid(
  db: Database,
  questionId: number,
  options: Parameters<typeof markPaidStatements>[3],
) {
  const question = (await getQuestionRow(db, questionId))!;
  const statements = markPaidStatements(
    db,
    question,
    await newQuestionRecipients(db, question.expertId),
    options,
  );
  const [first, ...rest] = statements;
  const [updated] = await db.batch([first, ...rest]);
  return (updated as unknown[]).length > 0;
}

const expectedPaymentOf = (question: QuestionRow): ExpectedPayment => ({
  subject: subjectOf(question.id),
  amount: question.amount,
  currency: question.currency,
  userId: question.userId,
  captureMethod: "manual",
  paymentIntentId: question.paymentIntentId,
});

/** A question's PaymentIntent counts as paid once it is authorised (manual capture). */
const QUESTION_PAID_STATUSES = ["requires_capture"] as const;

export type ConfirmResult =
  | { ok: true; questionId: number }
  | { ok: false; reason: "not_found" | "mismatch" | "not_paid" | "failed"; message: string };

/**
 * The browser's return after confirming the payment: the PaymentIntent must be this question's,
 * at Stripe, authorised, for the right amount and currency; then the question is pending.
 * Confirming twice is harmless.
 */
export async function confirmQuestionPayment(
  deps: QuestionDeps,
  input: { userId: number; questionId: number; paymentIntentId: string },
): Promise<ConfirmResult> {
  const question = await getQuestionRow(deps.db, input.questionId);
  if (!question || question.userId !== input.userId) {
    return { ok: false, reason: "not_found", message: ASK_MESSAGES.notFound };
  }
  if (question.status !== "awaiting_payment") {
    if (question.paymentIntentId === input.paymentIntentId && question.paidAt) {
      return { ok: true, questionId: question.id };
    }
    return { ok: false, reason: "mismatch", message: "This payment does not match your question." };
  }
  if (!deps.stripe) return { ok: false, reason: "mismatch", message: "Payments are not configured." };
  const check = await verifyPaymentIntent(
    deps.stripe,
    deps.db,
    input.paymentIntentId,
    expectedPaymentOf(question),
    {
      paidStatuses: QUESTION_PAID_STATUSES,
    },
  );
  if (!check.ok) {
    if (check.reason === "failed" && question.paymentIntentId === input.paymentIntentId) {
      await recordPaymentFailure(deps.db, question.id, check.message, deps.now);
    }
    return { ok: false, reason: check.reason, message: check.message };
  }
  try {
    const paid = await markQuestionPaid(deps.db, question.id, {
      now: deps.now,
      paymentState: "authorized",
      paymentIntentId: check.intent.id,
      ledger: { kind: "question", amount: question.amount },
    });
    if (!paid) {
      // Stripe's webhook recorded this payment while Stripe was being asked: paid, as the asker hears.
      const current = await getQuestionRow(deps.db, question.id);
      if (current?.paymentIntentId === check.intent.id && current.paidAt)
        return { ok: true, questionId: question.id };
      // Closed meanwhile (an account closing): the closing cancels its hold, or the hold lapses.
      return { ok: false, reason: "mismatch", message: "This question is closed." };
    }
  } catch (error) {
    // The PaymentIntent id is unique across questions: one payment pays for one question.
    if (isUniqueViolation(error)) {
      return { ok: false, reason: "mismatch", message: "This payment does not match your question." };
    }
    throw error;
  }
  return { ok: true, questionId: question.id };
}

function recordPaymentFailure(db: Database, questionId: number, message: string, now: Date) {
  return ledgerUpdateStatement(
    db,
    { questionId },
    { status: "failed", lastError: message },
    { now, from: ["pending", "failed"] },
  );
}

// ---------------------------------------------------------------------------------------------
// Webhooks: the handlers app/models/stripe-webhooks.server.ts dispatches question events to

/** What a webhook handler wants done: statements for the event's batch, or a reason to ignore it. */
export type WebhookOutcome = { statements: unknown[]; note: string };

async function questionForIntent(db: Database, intent: PaymentIntent) {
  const id = parseExpertId(intent.metadata?.questionId ?? null);
  return id === null ? null : getQuestionRow(db, id);
}

/** payment_intent.amount_capturable_updated: the card is authorised, the question is pending. */
export async function onQuestionPaymentAuthorized(
  db: Database,
  intent: PaymentIntent,
  now: Date,
): Promise<WebhookOutcome> {
  const question = await questionForIntent(db, intent);
  if (!question) return { statements: [], note: "unknown question" };
  const check = checkPaymentIntent(intent, expectedPaymentOf(question), {
    paidStatuses: QUESTION_PAID_STATUSES,
  });
  if (!check.ok) return { statements: [], note: `refused: ${check.reason}` };
  if (question.status !== "awaiting_payment") return { statements: [], note: "already paid" };
  return {
    statements: markPaidStatements(db, question, await newQuestionRecipients(db, question.expertId), {
      now,
      paymentState: "authorized",
      paymentIntentId: intent.id,
      ledger: { kind: "question", amount: question.amount },
    }),
    note: "question paid",
  };
}

/** payment_intent.payment_failed: the card was declined; the asker may try again. */
export async function onQuestionPaymentFailed(
  db: Database,
  intent: PaymentIntent,
  now: Date,
): Promise<WebhookOutcome> {
  const question = await questionForIntent(db, intent);
  if (!question || question.paymentIntentId !== intent.id)
    return { statements: [], note: "unknown question" };
  const message = intent.last_payment_error?.message ?? "The payment failed.";
  return { statements: [recordPaymentFailure(db, question.id, message, now)], note: "payment failed" };
}

/** payment_intent.succeeded: our capture went through (also when we missed its response). */
export async function onQuestionPaymentCaptured(
  db: Database,
  intent: PaymentIntent,
  now: Date,
): Promise<WebhookOutcome> {
  const question = await questionForIntent(db, intent);
  if (!question || question.paymentIntentId !== intent.id || question.status !== "answered") {
    return { statements: [], note: "not an answered question" };
  }
  return { statements: capturedStatements(db, question.id, now), note: "captured" };
}

/** payment_intent.canceled: an unpaid question is dropped; a paid one was never charged. */
export async function onQuestionPaymentCanceled(
  db: Database,
  intent: PaymentIntent,
  now: Date,
): Promise<WebhookOutcome> {
  const question = await questionForIntent(db, intent);
  if (!question || question.paymentIntentId !== intent.id)
    return { statements: [], note: "unknown question" };
  return {
    statements: [
      db
        .update(questions)
        .set({ status: "expired", expiredAt: now, paymentState: "cancelled" })
        .where(and(eq(questions.id, question.id), eq(questions.status, "awaiting_payment"))),
      // Still open, but its authorisation was cancelled at Stripe (the Dashboard, a fraud review):
      // nobody would pay for the answer, so it leaves the expert's desk, and the asker is told.
      db
        .update(questions)
        .set({ status: "expired", expiredAt: now, paymentState: "cancelled", subscriptionDay: null })
        .where(
          and(
            eq(questions.id, question.id),
            inArray(questions.status, [...OPEN_QUESTION_STATUSES]),
            eq(questions.paymentState, "authorized"),
          ),
        ),
      ...(question.userId === null
        ? []
        : notificationStatements(
            db,
            {
              userId: question.userId,
              kind: "question_expired",
              title: "Your question was withdrawn",
              body: "The payment for your question was cancelled, so it will not be answered. You were not charged.",
              link: `/questions/${question.id}`,
              dedupeKey: `question_payment_cancelled:question:${question.id}`,
            },
            { when: questionMovedNow(question.id, "expired", now) },
          )),
      // Declined or expired; or answered, but the authorisation ran out (after 7 days) before a
      // capture went through: nothing is left to capture, so it leaves the retry queue.
      db
        .update(questions)
        .set({ paymentState: "cancelled" })
        .where(
          and(
            eq(questions.id, question.id),
            or(
              and(
                inArray(questions.status, ["rejected", "expired"]),
                eq(questions.paymentState, "authorized"),
              ),
              and(
                eq(questions.status, "answered"),
                inArray(questions.paymentState, ["authorized", "capture_failed"]),
              ),
            ),
          ),
        ),
      ledgerUpdateStatement(
        db,
        { questionId: question.id },
        { status: "cancelled", lastError: null },
        { now, from: ["pending", "authorized", "failed"] },
      ),
    ],
    note: "cancelled",
  };
}

// ---------------------------------------------------------------------------------------------
// Answering and declining

export const ANSWER_RESULT_MESSAGES = {
  notFound: "Question not found.",
  alreadyAnswered: "This question has already been answered.",
  closed: "This question is closed: it was declined or expired.",
  unpaid: "This question has not been paid for yet.",
  deadline: "The 24-hour answer window for this question has passed.",
} as const;

export function canManageQuestion(question: Pick<QuestionRow, "expertId">, actor: Actor) {
  return actor.isAdmin || (actor.expertId !== null && question.expertId === actor.expertId);
}

/**
 * The asker, the expert it was put to, and admins. A question never paid for is not one: the expert
 * never sees it (the client walked away from it, or it expired unpaid), as on the desk.
 */
export function canViewQuestion(question: Pick<QuestionRow, "expertId" | "userId" | "paidAt">, actor: Actor) {
  if (question.userId === actor.userId) return true;
  if (question.paidAt === null) return actor.isAdmin;
  return canManageQuestion(question, actor);
}

type Refusal = { ok: false; httpStatus: 404 | 409; message: string };

/** Whether `actor` may act on the question now, and if not, the answer to give. */
function refusalFor(question: QuestionRow | null, actor: Actor, now: Date): Refusal | null {
  // Another expert's question is simply not there: no hint that it exists.
  if (!question || !canManageQuestion(question, actor)) {
    return { ok: false, httpStatus: 404, message: ANSWER_RESULT_MESSAGES.notFound };
  }
  // Never paid for (even once expired): not the expert's question at all.
  if (question.paidAt === null && !actor.isAdmin) {
    return { ok: false, httpStatus: 404, message: ANSWER_RESULT_MESSAGES.notFound };
  }
  switch (question.status as QuestionStatus) {
    case "awaiting_payment":
      return actor.isAdmin
        ? { ok: false, httpStatus: 409, message: ANSWER_RESULT_MESSAGES.unpaid }
        : { ok: false, httpStatus: 404, message: ANSWER_RESULT_MESSAGES.notFound };
    case "answered":
      return { ok: false, httpStatus: 409, message: ANSWER_RESULT_MESSAGES.alreadyAnswered };
    case "rejected":
    case "expired":
      return { ok: false, httpStatus: 409, message: ANSWER_RESULT_MESSAGES.closed };
    default:
      if (question.deadlineAt && question.deadlineAt.getTime() < now.getTime()) {
        return { ok: false, httpStatus: 409, message: ANSWER_RESULT_MESSAGES.deadline };
      }
      return null;
  }
}

export type PaymentOutcome = "captured" | "capture_failed" | "cancelled" | "cancel_failed" | "none";

export type AnswerResult =
  | {
      ok: true;
      status: "answered";
      payment: PaymentOutcome;
      /** Whose public profile counts the answer (null: a general question). */
      expert: AnsweringExpert | null;
    }
  | { ok: true; status: "draft" }
  | Refusal;

/**
 * Answers a question by text, audio or both (the audio already stored in R2 by the caller), or with
 * `status: "pending"` keeps a text draft (the asker then reads "Expert is working on your answer").
 * The answer is stored and the asker told in one batch; then the payment is captured. If Stripe
 * refuses the capture, the answer stays, the refusal is recorded for the admins and the retry.
 */
export async function answerQuestion(
  deps: QuestionDeps,
  input: {
    actor: Actor;
    questionId: number;
    answer: string | null;
    status: "answered" | "pending";
    audio?: { key: string; contentType: string } | null;
  },
): Promise<AnswerResult> {
  const { db, now } = deps;
  const question = await getQuestionRow(db, input.questionId);
  const refusal = refusalFor(question, input.actor, now);
  if (refusal || !question) return refusal!;
  const openNow = and(eq(questions.id, question.id), inArray(questions.status, [...OPEN_QUESTION_STATUSES]));

  if (input.status === "pending") {
    const [saved] = await db
      .update(questions)
      .set({ answer: input.answer, status: "in_progress" })
      .where(openNow)
      .returning({ id: questions.id });
    return saved ? { ok: true, status: "draft" } : alreadyHandled(db, question.id);
  }

  const expert = await answeringExpert(db, question.expertId);
  const [updated, ...rest] = await db.batch([
    db
      .update(questions)
      .set({
        answer: input.answer,
        audioResponse: input.audio?.key ?? null,
        audioContentType: input.audio?.contentType ?? null,
        status: "answered",
        answeredAt: now,
      })
      .where(openNow)
      .returning({ id: questions.id }),
    // Test mode and subscription questions owe the expert without a card to charge.
    ...(question.paymentState === "test_mode"
      ? [
          ledgerUpdateStatement(
            db,
            { questionId: question.id },
            { status: "captured", settledAt: now },
            { now, from: ["authorized"] },
          ),
        ]
      : question.paymentState === "subscription"
        ? [subscriptionCreditStatement(db, question, now)]
        : []),
    ...(question.userId === null
      ? []
      : notificationStatements(
          db,
          {
            userId: question.userId,
            kind: "question_answered",
            title: "Your question was answered",
            // An admin answering someone else's question is not that expert answering it.
            body:
              expert && input.actor.expertId !== expert.id
                ? `Your question to ${expert.name} was answered.`
                : `${expert?.name ?? "An expert"} answered your question.`,
            link: `/questions/${question.id}`,
            dedupeKey: `question_answered:question:${question.id}`,
          },
          { when: questionMovedNow(question.id, "answered", now) },
        )),
    ...adminHandledStatements(db, { actor: input.actor, question, expert, outcome: "answered", now }),
  ]);
  void rest;
  if ((updated as unknown[]).length === 0) return alreadyHandled(db, question.id);

  if (question.paymentState !== "authorized")
    return { ok: true, status: "answered", payment: "none", expert };
  const capture = await captureQuestionPayment(deps, question.id);
  return { ok: true, status: "answered", payment: capture.ok ? "captured" : "capture_failed", expert };
}

/**
 * When an admin answers or declines a question put to an expert, that expert is told: it is their
 * question, and nothing else on their desk would say who closed it.
 */
function adminHandledStatements(
  db: Database,
  input: {
    actor: Actor;
    question: Pick<QuestionRow, "id" | "name">;
    expert: AnsweringExpert | null;
    outcome: "answered" | "rejected";
    now: Date;
  },
) {
  const { actor, question, expert, outcome, now } = input;
  if (!expert || actor.expertId === expert.id) return [];
  const verb = outcome === "answered" ? "answered" : "declined";
  return notificationStatements(
    db,
    {
      userId: expert.userId,
      kind: outcome === "answered" ? "question_answered" : "question_declined",
      title: `An administrator ${verb} one of your questions`,
      body: `An administrator ${verb} ${question.name ?? "a client"}'s question #${question.id} for you.`,
      link: "/expert/questions",
      dedupeKey: `question_${verb}_by_admin:question:${question.id}`,
    },
    { when: questionMovedNow(question.id, outcome, now) },
  );
}

async function alreadyHandled(db: Database, questionId: number): Promise<Refusal> {
  const current = await getQuestionRow(db, questionId);
  return current?.status === "answered"
    ? { ok: false, httpStatus: 409, message: ANSWER_RESULT_MESSAGES.alreadyAnswered }
    : { ok: false, httpStatus: 409, message: ANSWER_RESULT_MESSAGES.closed };
}

type AnsweringExpert = { id: number; userId: number; name: string; customUrl: string | null };

/** The expert a question was put to: named in the asker's notification, their profile's caches cleared. */
async function answeringExpert(db: Database, expertId: number | null): Promise<AnsweringExpert | null> {
  if (expertId === null) return null;
  const [row] = await db
    .select({ id: experts.id, userId: experts.userId, name: personName, customUrl: experts.customUrl })
    .from(experts)
    .innerJoin(users, eq(users.id, experts.userId))
    .where(eq(experts.id, expertId))
    .limit(1);
  return row ?? null;
}

function capturedStatements(db: Database, questionId: number, now: Date) {
  return [
    db
      .update(questions)
      .set({ paymentState: "captured" })
      .where(
        and(eq(questions.id, questionId), inArray(questions.paymentState, ["authorized", "capture_failed"])),
      ),
    ledgerUpdateStatement(
      db,
      { questionId },
      { status: "captured", settledAt: now, lastError: null },
      { now, from: ["pending", "authorized"] },
    ),
  ];
}

/**
 * Captures the payment of an answered question (after the answer, from the admin's retry button and
 * from the scheduled retries). A refusal marks the question `capture_failed` with Stripe's message on
 * its ledger line; the next attempt uses a fresh idempotency key, because Stripe replays a saved error.
 */
export async function captureQuestionPayment(
  deps: QuestionDeps,
  questionId: number,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const { db, now } = deps;
  const question = await getQuestionRow(db, questionId);
  if (
    question?.status !== "answered" ||
    !question.paymentIntentId ||
    !["authorized", "capture_failed"].includes(question.paymentState)
  ) {
    return { ok: false, message: "There is no payment to capture for this question." };
  }
  const line = await getLedgerLine(db, { questionId });
  const retryStamp = line?.lastError ? (line.updatedAt?.getTime() ?? null) : null;
  let outcome: Awaited<ReturnType<typeof capturePayment>>;
  if (!deps.stripe) {
    outcome = { ok: false, error: "Stripe is not configured.", code: null };
  } else {
    try {
      outcome = await capturePayment(deps.stripe, {
        subject: subjectOf(questionId),
        paymentIntentId: question.paymentIntentId,
        retryStamp,
      });
    } catch (error) {
      outcome = { ok: false, error: `Stripe could not be reached: ${String(error)}`, code: null };
    }
  }
  if (outcome.ok) {
    await db.batch(capturedStatements(db, questionId, now) as [ReturnType<typeof capturedStatements>[0]]);
    return { ok: true };
  }
  console.error(
    JSON.stringify({ level: "error", message: "capture failed", questionId, error: outcome.error }),
  );
  if (outcome.code === PAYMENT_CANCELLED_CODE) {
    // Nothing is left to capture: out of the retry queue for good.
    await db.batch([
      db
        .update(questions)
        .set({ paymentState: "cancelled" })
        .where(
          and(
            eq(questions.id, questionId),
            inArray(questions.paymentState, ["authorized", "capture_failed"]),
          ),
        ),
      ledgerUpdateStatement(
        db,
        { questionId },
        { status: "cancelled", lastError: null },
        { now, from: ["pending", "authorized", "failed"] },
      ),
    ]);
    return { ok: false, message: outcome.error };
  }
  await db.batch([
    db
      .update(questions)
      .set({ paymentState: "capture_failed" })
      .where(and(eq(questions.id, questionId), eq(questions.paymentState, "authorized"))),
    ledgerUpdateStatement(
      db,
      { questionId },
      { lastError: `Capture failed: ${outcome.error}` },
      { now, from: ["pending", "authorized"] },
    ),
  ]);
  return { ok: false, message: outcome.error };
}

/**
 * True only in the batch that moved the question to `status` at `now`: its notices are written with
 * it, so a batch that lost a race (answered and declined at once, say) tells nobody anything false.
 */
const MOVED_AT = {
  pending: questions.paidAt,
  answered: questions.answeredAt,
  rejected: questions.declinedAt,
  expired: questions.expiredAt,
} as const;

export function questionMovedNow(questionId: number, status: keyof typeof MOVED_AT, now: Date) {
  const at = MOVED_AT[status];
  return sql`exists (select 1 from ${questions} where ${questions.id} = ${questionId} and ${questions.status} = ${status} and ${at} = ${now.getTime()})`;
}

/** Closes a question still open as declined at `now` (its notices check `questionMovedNow`). */
function declineStatement(db: Database, questionId: number, now: Date) {
  return db
    .update(questions)
    .set({ status: "rejected", declinedAt: now, subscriptionDay: null })
    .where(and(eq(questions.id, questionId), inArray(questions.status, [...OPEN_QUESTION_STATUSES])))
    .returning({ id: questions.id });
}

export type DeclineResult = { ok: true; payment: PaymentOutcome } | Refusal;

/**
 * Declines a question: it is `rejected`, the asker is told, and they are never charged (the card
 * authorisation is cancelled; a subscriber's day's slot is freed).
 */
export async function declineQuestion(
  deps: QuestionDeps,
  input: { actor: Actor; questionId: number; closingAccount?: boolean },
): Promise<DeclineResult> {
  const { db, now } = deps;
  const question = await getQuestionRow(db, input.questionId);
  const refusal = refusalFor(question, input.actor, now);
  if (refusal || !question) return refusal!;
  const expert = await answeringExpert(db, question.expertId);
  const expertName = expert?.name ?? "An expert";
  const byTheExpert = input.actor.expertId !== null && input.actor.expertId === question.expertId;
  // An admin declining someone else's question is not that expert declining it.
  const declined =
    byTheExpert && input.closingAccount
      ? `${expertName} closed their account, so your question was declined.`
      : byTheExpert
        ? `${expertName} declined your question.`
        : question.expertId === null
          ? "Your question was declined."
          : `Your question to ${expertName} was declined.`;
  const restoresAllowance = question.paymentState === "subscription";
  const [updated] = await db.batch([
    declineStatement(db, question.id, now),
    ...unchargedQuestionLedgerStatements(db, question, now),
    ...(question.userId === null
      ? []
      : notificationStatements(
          db,
          {
            userId: question.userId,
            kind: "question_declined",
            title: "Your question was declined",
            body: restoresAllowance
              ? `${declined} ${subscriberAllowanceNote(question.subscriptionDay, now)}`
              : `${declined} You were not charged.`,
            link: `/questions/${question.id}`,
            dedupeKey: `question_declined:question:${question.id}`,
          },
          { when: questionMovedNow(question.id, "rejected", now) },
        )),
    ...adminHandledStatements(db, { actor: input.actor, question, expert, outcome: "rejected", now }),
  ]);
  if ((updated as unknown[]).length === 0) return alreadyHandled(db, question.id);
  if (question.paymentState !== "authorized") return { ok: true, payment: "none" };
  const cancelled = await cancelQuestionAuthorization(deps, question.id);
  return { ok: true, payment: cancelled.ok ? "cancelled" : "cancel_failed" };
}

/**
 * Before an account is deleted, the unpaid questions nobody will answer (the asker's own, or those
 * put to the expert): they expire, their ledger line is cancelled, and their PaymentIntent too, so a
 * payment still being made cannot complete.
 */
export async function dropUnpaidQuestionsOfClosingAccount(
  deps: QuestionDeps,
  account: { userId: number } | { expertId: number },
) {
  const { db, now } = deps;
  const unpaid = await db
    .select({ id: questions.id, paymentIntentId: questions.paymentIntentId })
    .from(questions)
    .where(
      and(
        "userId" in account ? eq(questions.userId, account.userId) : eq(questions.expertId, account.expertId),
        eq(questions.status, "awaiting_payment"),
      ),
    );
  for (const question of unpaid) {
    await dropUnpaidQuestion(db, question.id, now);
    if (deps.stripe && question.paymentIntentId) {
      await cancelPayment(deps.stripe, {
        subject: subjectOf(question.id),
        paymentIntentId: question.paymentIntentId,
        reason: "abandoned",
      });
    }
  }
}

/**
 * A client closing their account withdraws their open questions: nobody answers for an asker who
 * cannot read the answer, and they are never charged for one. They are closed as declined (the card
 * authorisation is cancelled, the expert told).
 */
export async function withdrawQuestionsOfClosingAsker(deps: QuestionDeps, userId: number) {
  const { db, now } = deps;
  const asked = await db
    .select({
      id: questions.id,
      paymentState: questions.paymentState,
      expertUserId: experts.userId,
    })
    .from(questions)
    .leftJoin(experts, eq(experts.id, questions.expertId))
    .where(and(eq(questions.userId, userId), inArray(questions.status, [...OPEN_QUESTION_STATUSES])));
  for (const question of asked) {
    const [updated] = await db.batch([
      declineStatement(db, question.id, now),
      ...unchargedQuestionLedgerStatements(db, question, now),
      ...(question.expertUserId === null
        ? []
        : notificationStatements(
            db,
            {
              userId: question.expertUserId,
              kind: "question_withdrawn",
              title: "A question was withdrawn",
              body: "The client who asked it closed their account, so it no longer needs an answer.",
              link: "/expert/questions",
              dedupeKey: `question_withdrawn:question:${question.id}`,
            },
            { when: questionMovedNow(question.id, "rejected", now) },
          )),
    ]);
    if ((updated as unknown[]).length > 0 && question.paymentState === "authorized") {
      await cancelQuestionAuthorization(deps, question.id);
    }
  }
}

/**
 * Releases the card authorisation of a question that will not be answered (declined, or expired by
 * the scheduled task). A refusal is recorded on the ledger line for a retry; the hold also lapses on
 * its own at Stripe, so the client is never charged either way.
 */
export async function cancelQuestionAuthorization(
  deps: QuestionDeps,
  questionId: number,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const { db, now } = deps;
  const question = await getQuestionRow(db, questionId);
  if (
    !question?.paymentIntentId ||
    question.paymentState !== "authorized" ||
    !["rejected", "expired"].includes(question.status)
  ) {
    return { ok: false, message: "There is no authorisation to cancel for this question." };
  }
  const line = await getLedgerLine(db, { questionId });
  const retryStamp = line?.lastError ? (line.updatedAt?.getTime() ?? null) : null;
  let outcome: Awaited<ReturnType<typeof cancelPayment>>;
  if (!deps.stripe) {
    outcome = { ok: false, error: "Stripe is not configured.", code: null };
  } else {
    try {
      outcome = await cancelPayment(deps.stripe, {
        subject: subjectOf(questionId),
        paymentIntentId: question.paymentIntentId,
        reason: "abandoned",
        retryStamp,
      });
    } catch (error) {
      outcome = { ok: false, error: `Stripe could not be reached: ${String(error)}`, code: null };
    }
  }
  if (outcome.ok) {
    await db.batch([
      db
        .update(questions)
        .set({ paymentState: "cancelled" })
        .where(and(eq(questions.id, questionId), eq(questions.paymentState, "authorized"))),
      ledgerUpdateStatement(
        db,
        { questionId },
        { status: "cancelled", lastError: null },
        { now, from: ["pending", "authorized"] },
      ),
    ]);
    return { ok: true };
  }
  console.error(
    JSON.stringify({ level: "error", message: "cancel failed", questionId, error: outcome.error }),
  );
  await ledgerUpdateStatement(
    db,
    { questionId },
    { lastError: `Cancel failed: ${outcome.error}` },
    { now, from: ["pending", "authorized"] },
  );
  return { ok: false, message: outcome.error };
}

// ---------------------------------------------------------------------------------------------
// Reading

const listColumns = {
  id: questions.id,
  name: questions.name,
  question: questions.question,
  answer: questions.answer,
  status: questions.status,
  createdAt: questions.createdAt,
  answeredAt: questions.answeredAt,
  deadlineAt: questions.deadlineAt,
  hasAudio: sql<boolean>`${questions.audioResponse} is not null`.mapWith(Boolean),
  requestAudioResponse: questions.requestAudioResponse,
  paymentState: questions.paymentState,
  amount: questions.amount,
  /** What the expert earns: the ledger line's amount (a subscriber's question pays the expert's rate). */
  fee: sql<number>`coalesce(${payments.amount}, ${questions.amount})`.mapWith(Number),
  expertId: questions.expertId,
  userId: questions.userId,
};

export type QuestionListItem = {
  id: number;
  name: string | null;
  question: string;
  answer: string | null;
  status: QuestionStatus;
  createdAt: Date;
  answeredAt: Date | null;
  deadlineAt: Date | null;
  hasAudio: boolean;
  requestAudioResponse: boolean;
  paymentState: string;
  amount: number;
  fee: number;
  expertId: number | null;
  userId: number | null;
};

/** The expert's questions, newest first: never the unpaid ones. */
function expertQuestionsQuery(db: Database, expertId: number, limit: number, offset = 0, status?: SQL) {
  return (
    db
      .select(listColumns)
      .from(questions)
      .leftJoin(payments, eq(payments.questionId, questions.id))
      // Only questions paid for (test mode and subscriptions count as paid): never one the client
      // walked away from, even once it expired unpaid.
      .where(and(eq(questions.expertId, expertId), isNotNull(questions.paidAt), status))
      .orderBy(desc(questions.createdAt), desc(questions.id))
      .limit(limit)
      .offset(offset)
  );
}

export async function listQuestionsForExpert(db: Database, expertId: number, { limit = 500 } = {}) {
  return (await expertQuestionsQuery(db, expertId, limit)) as QuestionListItem[];
}

/** Open questions expire within a day, so the Pending tab lists them all, up to this many. */
const DESK_OPEN_LIMIT = 500;

/**
 * The expert's question desk in one round trip: every open question, one page of the answered ones
 * and of all of them, the tabs' true totals, and the zone the expert reads times in.
 */
export async function getExpertQuestionDesk(db: Database, expertId: number, { page = 1 } = {}) {
  const offset = (page - 1) * DESK_PAGE_SIZE;
  const isOpen = inArray(questions.status, [...OPEN_QUESTION_STATUSES]);
  const [counts, open, answered, all, zone] = await db.batch([
    db
      .select({
        pending: sql<number>`coalesce(sum(${questions.status} in ('pending', 'in_progress')), 0)`.mapWith(
          Number,
        ),
        answered: sql<number>`coalesce(sum(${questions.status} = 'answered'), 0)`.mapWith(Number),
        all: sql<number>`count(*)`.mapWith(Number),
      })
      .from(questions)
      .where(and(eq(questions.expertId, expertId), isNotNull(questions.paidAt))),
    expertQuestionsQuery(db, expertId, DESK_OPEN_LIMIT, 0, isOpen),
    expertQuestionsQuery(db, expertId, DESK_PAGE_SIZE, offset, eq(questions.status, "answered")),
    expertQuestionsQuery(db, expertId, DESK_PAGE_SIZE, offset),
    db.select({ timeZone: experts.timeZone }).from(experts).where(eq(experts.id, expertId)),
  ]);
  return {
    counts: counts[0] ?? { pending: 0, answered: 0, all: 0 },
    pending: open as QuestionListItem[],
    answered: answered as QuestionListItem[],
    all: all as QuestionListItem[],
    page,
    timeZone: zone[0]?.timeZone ?? "UTC",
  };
}

export const ADMIN_PAGE_SIZE = 50;

/** Every question (admins see all), filtered all / pending (open) / answered, newest first. */
const adminFilterWhere = (filter: AdminFilter) =>
  filter === "pending"
    ? inArray(questions.status, [...OPEN_QUESTION_STATUSES])
    : filter === "answered"
      ? eq(questions.status, "answered")
      : undefined;

export async function listQuestionsForAdmin(
  db: Database,
  { filter, page }: { filter: AdminFilter; page: number },
) {
  const where = adminFilterWhere(filter);
  const rows = await db
    .select({ ...listColumns, expertName: personName })
    .from(questions)
    .leftJoin(payments, eq(payments.questionId, questions.id))
    .leftJoin(experts, eq(experts.id, questions.expertId))
    .leftJoin(users, eq(users.id, experts.userId))
    .where(where)
    .orderBy(desc(questions.createdAt), desc(questions.id))
    .limit(ADMIN_PAGE_SIZE + 1)
    .offset((page - 1) * ADMIN_PAGE_SIZE);
  return {
    questions: rows.slice(0, ADMIN_PAGE_SIZE) as (QuestionListItem & { expertName: string | null })[],
    hasMore: rows.length > ADMIN_PAGE_SIZE,
  };
}

/** The experts whose public profile shows one of this asker's answered questions (the Q&A tab). */
export function expertsShowingQuestionsOf(db: Database, userId: number) {
  return db
    .selectDistinct({ id: experts.id, customUrl: experts.customUrl })
    .from(questions)
    .innerJoin(experts, eq(experts.id, questions.expertId))
    .where(
      and(eq(questions.userId, userId), eq(questions.showOnProfile, true), eq(questions.status, "answered")),
    );
}

/** How many questions the admin's filter holds: read only for a page past the end, to find the last. */
export async function countQuestionsForAdmin(db: Database, filter: AdminFilter): Promise<number> {
  const [row] = await db.select({ total: count() }).from(questions).where(adminFilterWhere(filter));
  return row?.total ?? 0;
}

/** Answered questions whose charge Stripe refused: shown to admins with the reason, to retry. */
export async function listCaptureFailures(db: Database) {
  return db
    .select({
      id: questions.id,
      amount: questions.amount,
      answeredAt: questions.answeredAt,
      lastError: payments.lastError,
      updatedAt: payments.updatedAt,
    })
    .from(questions)
    .leftJoin(payments, eq(payments.questionId, questions.id))
    .where(and(eq(questions.status, "answered"), eq(questions.paymentState, "capture_failed")))
    .orderBy(desc(questions.answeredAt))
    .limit(50);
}

/** Answered questions still to be charged: refused captures, and captures interrupted before they ran. */
export async function listQuestionsAwaitingCapture(db: Database, { limit = 25 } = {}) {
  return (
    db
      .select({ id: questions.id })
      .from(questions)
      .leftJoin(payments, eq(payments.questionId, questions.id))
      .where(
        and(
          eq(questions.status, "answered"),
          inArray(questions.paymentState, ["authorized", "capture_failed"]),
          isNotNull(questions.paymentIntentId),
        ),
      )
      // Least recently tried first: one that keeps failing goes to the back, never blocking the rest.
      .orderBy(asc(payments.updatedAt), asc(questions.answeredAt))
      .limit(limit)
  );
}

/** A question as its asker, its expert or an admin sees it; null for anyone else. */
export async function getQuestionForViewer(db: Database, questionId: number, viewer: Actor) {
  const [row] = await db
    .select({
      ...listColumns,
      paidAt: questions.paidAt,
      expertName: personName,
      expertTitle: experts.title,
      currency: questions.currency,
      // Only the asker can rate a question, once: its review is theirs.
      rating: reviews.rating,
    })
    .from(questions)
    .leftJoin(payments, eq(payments.questionId, questions.id))
    .leftJoin(experts, eq(experts.id, questions.expertId))
    .leftJoin(users, eq(users.id, experts.userId))
    .leftJoin(reviews, eq(reviews.questionId, questions.id))
    .where(eq(questions.id, questionId))
    .limit(1);
  if (!row || !canViewQuestion(row, viewer)) return null;
  const manages = canManageQuestion(row, viewer);
  const { rating, ...question } = row;
  return {
    ...(question as QuestionListItem & { expertName: string | null; expertTitle: string | null }),
    myRating: row.userId === viewer.userId ? rating : null,
    // A draft is the expert's until it is sent.
    answer: row.status === "answered" || manages ? row.answer : null,
    viewerIsAsker: row.userId === viewer.userId,
    viewerManages: manages,
    amountText: formatCents(row.amount),
  };
}

/** The R2 key of a question's recorded answer, if `viewer` may hear it (asker, its expert, admins). */
export async function getAudioKeyForViewer(db: Database, questionId: number, viewer: Actor) {
  const [row] = await db
    .select({
      audio: questions.audioResponse,
      expertId: questions.expertId,
      userId: questions.userId,
      paidAt: questions.paidAt,
    })
    .from(questions)
    .where(eq(questions.id, questionId))
    .limit(1);
  if (!row?.audio || !canViewQuestion(row, viewer)) return null;
  return row.audio;
}

/** The asker's own questions, newest first (the /test-audio "My Questions" list). */
export async function listQuestionsForAsker(db: Database, userId: number, { limit = 50 } = {}) {
  const rows = await db
    .select(listColumns)
    .from(questions)
    .leftJoin(payments, eq(payments.questionId, questions.id))
    .where(eq(questions.userId, userId))
    .orderBy(desc(questions.createdAt), desc(questions.id))
    .limit(limit);
  return (rows as QuestionListItem[]).map((row) => ({
    ...row,
    answer: row.status === "answered" ? row.answer : null,
  }));
}

// ---------------------------------------------------------------------------------------------
// Request plumbing

/** The acting person as the question rules see them. */
export function actorOf(user: SessionUser): Actor {
  return { userId: user.id, expertId: user.expertProfile?.id ?? null, isAdmin: isAdminUser(user) };
}

/** The question functions' dependencies for a request: the primary database, Stripe, the clock. */
export function questionDeps(context: Pick<AppLoadContext, "primaryDb" | "config" | "now">): QuestionDeps {
  return { db: context.primaryDb, stripe: getOptionalStripe(context), now: new Date(context.now()) };
}

/** Whether `actor` may answer or decline the question now (checked before an upload is stored). */
export async function checkCanManage(db: Database, questionId: number, actor: Actor, now: Date) {
  return refusalFor(await getQuestionRow(db, questionId), actor, now);
}

/** Experts a question can be sent to, by name (the /test-audio expert select). */
export async function listExpertsToAsk(db: Database, { limit = 200 } = {}) {
  return db
    .select({ id: experts.id, name: personName })
    .from(experts)
    .innerJoin(users, eq(users.id, experts.userId))
    .where(and(isNull(experts.deletedAt), isNull(users.deletedAt)))
    .orderBy(personName)
    .limit(limit);
}

/** The expert profile of an account, by username (the demo expert is /test-audio's default). */
export async function findExpertIdByUsername(db: Database, username: string): Promise<number | null> {
  const [row] = await db
    .select({ id: experts.id })
    .from(experts)
    .innerJoin(users, eq(users.id, experts.userId))
    .where(and(sql`lower(${users.username}) = lower(${username})`, isNull(experts.deletedAt)))
    .limit(1);
  return row?.id ?? null;
}
