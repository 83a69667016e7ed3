import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { questions } from "~/db/schema.server";
import { db } from "../support/accounts";
import { callApi, errorOf, json } from "../support/api";
import { bookableDate, countBookings, getBooking, MESSAGE, newBookableExpert } from "../support/bookings";
import { getQuestion, newClient, newExpert } from "../support/questions";
import { stripeFake } from "../support/stripe";

const QUESTION = "Should I raise a small angel round or keep bootstrapping for another year?";

describe("POST /api/create-payment-intent with Stripe configured", () => {
  it("prices a question at the expert's rate whatever amount is sent, after writing the question", async () => {
    const expert = await newExpert("pi-question", 2500);
    const client = await newClient();
    const response = await callApi("POST", "/api/create-payment-intent", {
      cookie: client.cookie,
      body: { amount: 5, expertId: expert.expertId, question: QUESTION },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ type: "question", status: "requires_payment", amount: 2500 });
    expect(body.clientSecret).toMatch(new RegExp(`^${body.paymentIntentId}_secret_`));
    const intent = await stripeFake.intent(body.paymentIntentId);
    expect(intent).toMatchObject({ amount: 2500, capture_method: "manual" });
    expect(await getQuestion(body.questionId)).toMatchObject({
      status: "awaiting_payment",
      paymentIntentId: body.paymentIntentId,
      amount: 2500,
    });
  });

  it("prices a session at the expert's session price and holds the slot", async () => {
    const expert = await newBookableExpert({ sessionPrice: 15000 });
    const client = await newClient();
    const response = await callApi("POST", "/api/create-payment-intent", {
      cookie: client.cookie,
      body: {
        type: "session",
        amount: 1,
        expertId: expert.expertId,
        date: bookableDate({ n: 35 }),
        time: "10:00",
        name: "Jordan Client",
        email: "jordan@example.com",
        message: MESSAGE,
      },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ type: "session", status: "requires_payment", amount: 15000 });
    expect((await stripeFake.intent(body.paymentIntentId)).amount).toBe(15000);
    expect(await getBooking(body.bookingId)).toMatchObject({ status: "awaiting_payment", amount: 15000 });
  });

  it("refuses a price other than the one the caller was shown (409), writing nothing and asking Stripe for nothing", async () => {
    const expert = await newBookableExpert({ sessionPrice: 15000 });
    const client = await newClient();
    const question = await callApi("POST", "/api/create-payment-intent", {
      cookie: client.cookie,
      body: { expertId: expert.expertId, question: QUESTION, expectedAmount: 1 },
    });
    expect(question.status).toBe(409);
    expect(await json(question)).toEqual({
      error: "The price of this question has changed to $15.00. Please check it and try again.",
      reason: "price_changed",
    });
    const date = bookableDate({ n: 36 });
    const bookAt = (expectedAmount: number) =>
      callApi("POST", "/api/create-payment-intent", {
        cookie: client.cookie,
        body: {
          type: "session",
          expertId: expert.expertId,
          date,
          time: "10:00",
          name: "Jordan Client",
          email: "jordan@example.com",
          message: MESSAGE,
          expectedAmount,
        },
      });
    const session = await bookAt(1);
    expect(session.status).toBe(409);
    expect(await json(session)).toMatchObject({ reason: "price_changed" });
    expect(await countBookings(expert.expertId)).toBe(0);
    expect(await db().select().from(questions).where(eq(questions.userId, client.userId))).toEqual([]);
    const askedOfStripe = (await stripeFake.requests("")).filter(
      (request) =>
        (request.params.metadata as { userId?: string } | undefined)?.userId === String(client.userId),
    );
    expect(askedOfStripe).toEqual([]);

    const shown = await bookAt(15000);
    expect(shown.status).toBe(200);
    expect(await json(shown)).toMatchObject({ type: "session", status: "requires_payment", amount: 15000 });
  });

  it("names the two types it takes when another is sent", async () => {
    const client = await newClient();
    const response = await callApi("POST", "/api/create-payment-intent", {
      cookie: client.cookie,
      body: { type: "Session", expertId: 1, question: QUESTION },
    });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toBe('type must be "question" or "session"');
  });

  it("answers the booking form's messages (400), 401 signed out, and makes no PaymentIntent", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const invalid = await callApi("POST", "/api/create-payment-intent", {
      cookie: client.cookie,
      body: {
        type: "session",
        expertId: expert.expertId,
        name: "J",
        email: "nope",
        date: "",
        time: "",
        message: "",
      },
    });
    expect(invalid.status).toBe(400);
    expect(await errorOf(invalid)).toBe("Name must be at least 2 characters long");
    const signedOut = await callApi("POST", "/api/create-payment-intent", {
      body: { expertId: expert.expertId, question: QUESTION },
    });
    expect(signedOut.status).toBe(401);
  });
});
