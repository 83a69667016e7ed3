import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailOutbox, experts, payments, questions } from "~/db/schema.server";
import { db, get, postForm, postRaw } from "./support/accounts";
import { d1Queries } from "./support/discovery";
import {
  getLedger,
  getQuestion,
  makeSubscriber,
  newAdmin,
  newClient,
  newExpert,
  notificationsOf,
  postJson,
  toastFrom,
} from "./support/questions";

const QUESTION = "How should I price my first consulting package for small businesses?";

const countQuestions = async (userId: number) =>
  (await db().select({ n: sql<number>`count(*)` }).from(questions).where(eq(questions.userId, userId)))[0].n;

const questionIdFrom = (response: Response) =>
  Number(new URL(response.headers.get("Location")!, "https://x").searchParams.get("question"));

describe("the Ask screen (test mode: no Stripe key)", () => {
  it("sends a signed-out visitor to /auth with SPEC.md's toast, and back to the question after signing in", async () => {
    const expert = await newExpert();
    const response = await get(`/ask/${expert.expertId}`);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/auth?redirectTo=%2Fask%2F${expert.expertId}`);
    expect(toastFrom(response)).toMatchObject({
      title: "Authentication Required",
      description: "Please log in to submit a question.",
      variant: "destructive",
    });

    const client = await newClient();
    const signIn = await postForm("/auth", {
      intent: "login",
      username: client.username,
      password: "client-pass-1",
      redirectTo: `/ask/${expert.expertId}`,
    });
    expect(signIn.headers.get("Location")).toBe(`/ask/${expert.expertId}`);
  });

  it("shows the expert, the expert's real price and SPEC.md's test-mode texts", async () => {
    const expert = await newExpert("pricey", 1500);
    const client = await newClient();
    const response = await get(`/ask/${expert.expertId}`, client.cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`Ask ${expert.username} Name a Question`);
    expect(html).toContain("You are submitting a question to this expert.");
    expect(html).toContain("Test Mode: Submit questions without payment");
    expect(html).toContain("Test Mode Active");
    expect(html).toContain("Submit Question (Test Mode)");
    expect(html).toContain("Submit Your Question");
    expect(html).toContain("Ask your question and we&#x27;ll get you an expert answer");
    expect(html).toContain("Enter your detailed question here...");
    expect(html).toContain("Be specific so our experts can provide the most helpful answer.");
    expect(html).toContain("Request Audio Response");
    expect(html).toContain("Ask the expert to provide an audio recording of their answer");
    expect(html).toContain("One-time question");
    expect(html).toContain("$15.00");
    expect(html).not.toContain("$5.00");
  });

  it("asks without an expert for $5.00, and omits the expert card when the lookup fails", async () => {
    const client = await newClient();
    for (const path of ["/ask", "/ask/999999", "/ask/not-a-number"]) {
      const response = await get(path, client.cookie);
      expect(response.status, path).toBe(200);
      const html = await response.text();
      expect(html, path).toContain("Ask a Question");
      expect(html, path).toContain("$5.00");
      expect(html, path).not.toContain("You are submitting a question to this expert.");
      // An address that names an expert says the expert was not found, and where the question goes.
      expect(
        html.includes("This expert could not be found. Your question will go to our experts in general"),
        path,
      ).toBe(path !== "/ask");
    }
  });

  it("stores the question as pending without payment, owes the expert, and tells them", async () => {
    const expert = await newExpert("tm", 1500);
    const client = await newClient();
    const response = await postForm(
      `/ask/${expert.expertId}`,
      { question: `  ${QUESTION}  `, requestAudioResponse: "on", showOnProfile: "on" },
      { cookie: client.cookie },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/thank-you\?question=\d+$/);
    expect(toastFrom(response)).toMatchObject({ title: "Success! (Test Mode)" });

    const question = await getQuestion(questionIdFrom(response));
    expect(question).toMatchObject({
      userId: client.userId,
      expertId: expert.expertId,
      question: QUESTION,
      status: "pending",
      paymentState: "test_mode",
      paymentIntentId: null,
      amount: 1500,
      requestAudioResponse: true,
      showOnProfile: true,
    });
    expect(question.deadlineAt!.getTime() - question.paidAt!.getTime()).toBe(24 * 60 * 60 * 1000);
    expect(await getLedger(question.id)).toMatchObject({
      kind: "question",
      status: "authorized",
      amount: 1500,
      expertId: expert.expertId,
    });
    const [note] = await notificationsOf(expert.userId);
    expect(note).toMatchObject({ kind: "question_new", title: "New question", link: "/expert/questions" });
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.notificationId, note.id));
    expect(mails).toHaveLength(1);

    const thankYou = await get(response.headers.get("Location")!, client.cookie);
    expect(await thankYou.text()).toContain(`href="/questions/${question.id}"`);
  });

  it("gives a form sent again (its answer lost) the question it made, never a second one", async () => {
    const expert = await newExpert("resend", 1500);
    const client = await newClient();
    const ask = (question: string) =>
      postForm(`/ask/${expert.expertId}`, { question }, { cookie: client.cookie });
    const first = await ask(QUESTION);
    const again = await ask(`${QUESTION} `);
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await countQuestions(client.userId)).toBe(1);
    const ledger = await db().select().from(payments).where(eq(payments.userId, client.userId));
    expect(ledger).toHaveLength(1);
    expect(await notificationsOf(expert.userId)).toHaveLength(1);

    // Another question, or the same one to another expert or to anyone, is a question of its own.
    expect(questionIdFrom(await ask(`${QUESTION} And for larger firms?`))).not.toBe(questionIdFrom(first));
    const other = await newExpert("resend2", 1500);
    const toOther = await postForm(
      `/ask/${other.expertId}`,
      { question: QUESTION },
      { cookie: client.cookie },
    );
    expect(questionIdFrom(toOther)).not.toBe(questionIdFrom(first));
    expect(await countQuestions(client.userId)).toBe(3);
    // Once the expert declines it, the same question may be asked again.
    await postForm(`/questions/${questionIdFrom(first)}/decline`, {}, { cookie: expert.cookie });
    expect(questionIdFrom(await ask(QUESTION))).not.toBe(questionIdFrom(first));
    expect(await countQuestions(client.userId)).toBe(4);
    // And another asker's identical question is theirs.
    const someoneElse = await newClient();
    const theirs = await postForm(
      `/ask/${expert.expertId}`,
      { question: QUESTION },
      { cookie: someoneElse.cookie },
    );
    expect(questionIdFrom(theirs)).not.toBe(questionIdFrom(first));
  });

  it("tells every admin of a general question (no expert), with a link to answer it", async () => {
    const admins = [await newAdmin(), await newAdmin()];
    const client = await newClient();
    const response = await postForm("/ask", { question: QUESTION }, { cookie: client.cookie });
    expect(response.status).toBe(302);
    const questionId = Number(
      new URL(response.headers.get("Location")!, "http://x").searchParams.get("question"),
    );
    expect(await getQuestion(questionId)).toMatchObject({ expertId: null, status: "pending" });
    for (const admin of admins) {
      const notes = (await notificationsOf(admin.userId)).filter((note) => note.kind === "question_new");
      expect(notes).toEqual([
        expect.objectContaining({
          title: "New question",
          link: `/admin?filter=pending&question=${questionId}`,
        }),
      ]);
      const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.notificationId, notes[0].id));
      expect(mails).toHaveLength(1);
    }
    expect(await notificationsOf(client.userId)).toEqual([]);
  });

  it("refuses a question of 9 or of 20,000 characters with SPEC.md's message, storing nothing", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const short = await postForm(
      `/ask/${expert.expertId}`,
      { question: "123456789" },
      { cookie: client.cookie },
    );
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("Your question must be at least 10 characters long");
    // Without JavaScript the refused form comes back as sent: the text, and the switches as set.
    const withSwitches = await postForm(
      `/ask/${expert.expertId}`,
      { question: "too short", requestAudioResponse: "on", showOnProfile: "on" },
      { cookie: client.cookie },
    );
    const refilled = await withSwitches.text();
    expect(refilled).toContain(">too short</textarea>");
    expect(refilled.match(/role="switch"[^>]*aria-checked="true"/g)).toHaveLength(2);
    const long = await postForm(
      `/ask/${expert.expertId}`,
      { question: "x".repeat(20_000) },
      { cookie: client.cookie },
    );
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("Your question must be at most 5,000 characters long");
    const api = await postJson(
      "/api/questions",
      { question: "too short", expertId: expert.expertId },
      client.cookie,
    );
    expect(api.status).toBe(400);
    expect(await api.json()).toMatchObject({ error: "Your question must be at least 10 characters long" });
    expect(await countQuestions(client.userId)).toBe(0);
  });

  it("answers a body that is not a form with a 400, never a 500", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const response = await postRaw(`/ask/${expert.expertId}`, '{"question":"x"}', {
      cookie: client.cookie,
      contentType: "application/json",
    });
    expect(response.status).toBe(400);
    expect(await countQuestions(client.userId)).toBe(0);
  });

  it("shows HTML and script in a question as text, never as markup", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const hostile = `<script>alert("pwned")</script><img src=x onerror="alert(1)"> Is this safe to ask?`;
    const response = await postForm(
      `/ask/${expert.expertId}`,
      { question: hostile },
      { cookie: client.cookie },
    );
    const id = questionIdFrom(response);
    expect((await getQuestion(id)).question).toBe(hostile);
    for (const [path, cookie] of [
      [`/questions/${id}`, client.cookie],
      ["/expert/questions", expert.cookie],
    ] as const) {
      const html = await (await get(path, cookie)).text();
      expect(html, path).not.toContain('<script>alert("pwned")');
      expect(html, path).not.toContain('<img src=x onerror="alert(1)">');
      expect(html, path).toContain("&lt;script&gt;alert(");
    }
  });

  it("shows a waiting question's expert and an admin where to answer it, and its asker only the wait", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const admin = await newAdmin();
    const id = questionIdFrom(
      await postForm(`/ask/${expert.expertId}`, { question: QUESTION }, { cookie: client.cookie }),
    );
    const asker = await (await get(`/questions/${id}`, client.cookie)).text();
    expect(asker).toContain("We&#x27;ll let you know as soon as the answer is ready");
    expect(asker).not.toContain('href="/expert/questions"');
    expect(asker).toContain('href="/dashboard"');

    const desk = await (await get(`/questions/${id}`, expert.cookie)).text();
    expect(desk).toContain("This question is waiting for your answer.");
    expect(desk).toContain('href="/expert/questions"');
    expect(desk).toContain('href="/expert/dashboard"');
    expect(desk).not.toContain("We&#x27;ll let you know");

    const adminView = await (await get(`/questions/${id}`, admin.cookie)).text();
    expect(adminView).toContain("This question is waiting for the expert&#x27;s answer.");
    expect(adminView).toContain(`href="/admin?question=${id}"`);
  });

  it("tells the asker of an unpaid question that no expert has it yet, and offers to ask again", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const id = questionIdFrom(
      await postForm(`/ask/${expert.expertId}`, { question: QUESTION }, { cookie: client.cookie }),
    );
    await db().update(questions).set({ status: "awaiting_payment" }).where(eq(questions.id, id));
    const asker = await (await get(`/questions/${id}`, client.cookie)).text();
    expect(asker).toContain("This question has not been paid for, so it has not been sent to an expert yet.");
    expect(asker).toContain(`href="/ask/${expert.expertId}"`);
    expect(asker).not.toContain("We&#x27;ll let you know as soon as the answer is ready");
  });

  it("does not let an expert ask themselves", async () => {
    const expert = await newExpert();
    const response = await postForm(
      `/ask/${expert.expertId}`,
      { question: QUESTION },
      { cookie: expert.cookie },
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("You can&#x27;t ask yourself a question.");
    expect(await countQuestions(expert.userId)).toBe(0);
  });

  it("never sends a question meant for an expert who is gone to anyone else", async () => {
    const expert = await newExpert("leaving", 2000);
    const client = await newClient();
    await db().update(experts).set({ deletedAt: new Date() }).where(eq(experts.id, expert.expertId));
    const api = await postJson(
      "/api/questions",
      { question: QUESTION, expertId: expert.expertId },
      client.cookie,
    );
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({
      error: "This expert could not be found. Please check the URL and try again.",
    });
    const form = await postForm(`/ask/${expert.expertId}`, { question: QUESTION }, { cookie: client.cookie });
    expect(form.status).toBe(404);
    expect(await form.text()).toContain("This expert could not be found.");
    expect(await countQuestions(client.userId)).toBe(0);

    // The page found no expert there and said so: its form asks no one in particular, for $5.
    const general = await postForm(
      "/ask/999999",
      { question: QUESTION, noExpert: "yes" },
      { cookie: client.cookie },
    );
    expect(general.status).toBe(302);
    expect(await getQuestion(questionIdFrom(general))).toMatchObject({ expertId: null, amount: 500 });
  });

  it("takes the same question as JSON at POST /api/questions, ignoring any price sent", async () => {
    const expert = await newExpert("api", 2000);
    const client = await newClient();
    const response = await postJson(
      "/api/questions",
      { question: QUESTION, expertId: expert.expertId, amount: 1, price: 1 },
      client.cookie,
    );
    expect(response.status).toBe(201);
    const body = (await response.json()) as { status: string; questionId: number; paymentState: string };
    expect(body).toMatchObject({ status: "pending", paymentState: "test_mode" });
    expect((await getQuestion(body.questionId)).amount).toBe(2000);
    expect((await postJson("/api/questions", { question: QUESTION })).status).toBe(401);
  });

  it("refuses a question whose price changed since the page showed it, never asking the new one", async () => {
    const expert = await newExpert("repriced", 1500);
    const client = await newClient();
    await db().update(experts).set({ questionRate: 2500 }).where(eq(experts.id, expert.expertId));
    const stale = await postJson(
      "/api/questions",
      { question: QUESTION, expertId: expert.expertId, expectedAmount: 1500 },
      client.cookie,
    );
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({
      reason: "price_changed",
      error: "The price of this question has changed to $25.00. Please check it and try again.",
    });
    const [{ count }] = await db()
      .select({ count: sql<number>`count(*)` })
      .from(questions)
      .where(eq(questions.expertId, expert.expertId));
    expect(count).toBe(0);

    const current = await postJson(
      "/api/questions",
      { question: QUESTION, expertId: expert.expertId, expectedAmount: 2500 },
      client.cookie,
    );
    expect(current.status).toBe(201);
    expect((await getQuestion(((await current.json()) as { questionId: number }).questionId)).amount).toBe(
      2500,
    );
  });

  it("refuses a test-mode question from the form whose price changed since the page showed it", async () => {
    const expert = await newExpert("repriced-form", 1500);
    const client = await newClient();
    const page = await (await get(`/ask/${expert.expertId}`, client.cookie)).text();
    expect(page).toMatch(/<input type="hidden" name="expectedAmount" value="1500"\/>/);
    await db().update(experts).set({ questionRate: 2500 }).where(eq(experts.id, expert.expertId));

    for (const expectedAmount of ["1500", "abc", "-2500", "2500.0", "1e3"]) {
      const stale = await postForm(
        `/ask/${expert.expertId}`,
        { question: QUESTION, expectedAmount },
        { cookie: client.cookie },
      );
      expect(stale.status, expectedAmount).toBe(409);
      expect(await stale.text(), expectedAmount).toContain(
        "The price of this question has changed to $25.00. Please check it and try again.",
      );
    }
    expect(await countQuestions(client.userId)).toBe(0);

    const current = await postForm(
      `/ask/${expert.expertId}`,
      { question: QUESTION, expectedAmount: "2500" },
      { cookie: client.cookie },
    );
    expect(current.status).toBe(302);
    expect((await getQuestion(questionIdFrom(current))).amount).toBe(2500);
  });

  it("refuses a question of invisible characters or NULs, as JSON or from the form, storing nothing", async () => {
    const expert = await newExpert("blank");
    const client = await newClient();
    for (const question of ["\u200b".repeat(11), `ab${"\u0000".repeat(8)}`, "\u200d\ufeff\u2060".repeat(4)]) {
      const json = await postJson("/api/questions", { question, expertId: expert.expertId }, client.cookie);
      expect(json.status).toBe(400);
      expect(await json.json()).toMatchObject({ error: "Your question must be at least 10 characters long" });
      const form = await postForm(`/ask/${expert.expertId}`, { question }, { cookie: client.cookie });
      expect(form.status).toBe(400);
    }
    const [{ count }] = await db()
      .select({ count: sql<number>`count(*)` })
      .from(questions)
      .where(eq(questions.expertId, expert.expertId));
    expect(count).toBe(0);
  });
});

describe("asking as a subscriber", () => {
  it("asks without paying and uses the day's question; the expert is owed the standard fee, not their rate", async () => {
    const expert = await newExpert("sub", 1800);
    const client = await newClient("subscriber");
    await makeSubscriber(client.userId);
    const page = await (await get(`/ask/${expert.expertId}`, client.cookie)).text();
    expect(page).toContain("Included in your subscription: 1 question left today.");
    expect(page).toContain(
      "Included in your subscription: get your personalized expert answer within 24 hours",
    );
    expect(page).not.toContain("Test Mode Active");

    const response = await postForm(
      `/ask/${expert.expertId}`,
      { question: QUESTION },
      { cookie: client.cookie },
    );
    expect(response.status).toBe(302);
    expect(toastFrom(response)).toMatchObject({ title: "Success!" });
    const question = await getQuestion(questionIdFrom(response));
    expect(question).toMatchObject({
      status: "pending",
      paymentState: "subscription",
      amount: 0,
      subscriptionDay: new Date().toISOString().slice(0, 10),
    });
    expect(await getLedger(question.id)).toMatchObject({
      kind: "subscription_question",
      status: "authorized",
      amount: 500,
    });
  });

  it("refuses a second question the same day with a clear message", async () => {
    const expert = await newExpert();
    const client = await newClient("subscriber");
    await makeSubscriber(client.userId);
    await postForm(`/ask/${expert.expertId}`, { question: QUESTION }, { cookie: client.cookie });
    const second = await postForm(
      `/ask/${expert.expertId}`,
      { question: `${QUESTION} Again.` },
      { cookie: client.cookie },
    );
    expect(second.status).toBe(409);
    expect(await second.text()).toContain("Your next question is available tomorrow (from midnight UTC).");
    const page = await (await get(`/ask/${expert.expertId}`, client.cookie)).text();
    expect(page).toContain("You have used today&#x27;s question");
    // The subtitle no longer says the question is included.
    expect(page).toContain("Your subscription includes one question a day, and today&#x27;s has been asked");
    expect(page).not.toContain("Included in your subscription: get your personalized");
    expect(await countQuestions(client.userId)).toBe(1);
  });

  it("gives a subscriber's resent question back rather than saying today's question is used", async () => {
    const expert = await newExpert();
    const client = await newClient("subscriber");
    await makeSubscriber(client.userId);
    const first = await postForm(
      `/ask/${expert.expertId}`,
      { question: QUESTION },
      { cookie: client.cookie },
    );
    const again = await postForm(
      `/ask/${expert.expertId}`,
      { question: QUESTION },
      { cookie: client.cookie },
    );
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await countQuestions(client.userId)).toBe(1);
  });

  it("lets exactly one of two questions sent at the same instant through", async () => {
    const expert = await newExpert();
    const client = await newClient("subscriber");
    await makeSubscriber(client.userId);
    const responses = await Promise.all(
      [1, 2].map((n) =>
        postForm(`/ask/${expert.expertId}`, { question: `${QUESTION} (${n})` }, { cookie: client.cookie }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([302, 409]);
    const rows = await db().select().from(questions).where(eq(questions.userId, client.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe("pending");
    const lines = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.userId, client.userId)));
    expect(lines).toHaveLength(1);
  });

  it("treats a subscription past its end date like no subscription", async () => {
    const expert = await newExpert();
    const client = await newClient("lapsed");
    await makeSubscriber(client.userId, { endsInDays: -1 });
    const response = await postForm(
      `/ask/${expert.expertId}`,
      { question: QUESTION },
      { cookie: client.cookie },
    );
    expect((await getQuestion(questionIdFrom(response))).paymentState).toBe("test_mode");
  });
});

describe("reading the Ask screen", () => {
  const screen = async (path: string, cookie: string) => {
    const response = await get(path, cookie);
    expect(response.status, path).toBe(200);
    return { queries: d1Queries(response), html: await response.text() };
  };

  it("reads the expert, the price and the allowance with the session: one D1 round trip", async () => {
    const expert = await newExpert("onetrip", 2200);
    const client = await newClient("onetrip");
    const plain = await screen(`/ask/${expert.expertId}`, client.cookie);
    expect(plain.queries).toBe(1);
    expect(plain.html).toContain(`Ask ${expert.username} Name a Question`);
    expect(plain.html).toContain("$22.00");
    expect(plain.html).not.toContain("Included in your subscription");
    const noExpert = await screen("/ask", client.cookie);
    expect(noExpert.queries).toBe(1);
    expect(noExpert.html).toContain("$5.00");

    await makeSubscriber(client.userId);
    const subscribed = await screen(`/ask/${expert.expertId}`, client.cookie);
    expect(subscribed.queries).toBe(1);
    expect(subscribed.html).toContain("Included in your subscription: 1 question left today.");

    await postForm(`/ask/${expert.expertId}`, { question: QUESTION }, { cookie: client.cookie });
    const used = await screen(`/ask/${expert.expertId}`, client.cookie);
    expect(used.queries).toBe(1);
    expect(used.html).toContain("You have used today&#x27;s question");
  });

  it("reads only the signed-in user's own allowance, and none from a lapsed subscription", async () => {
    const expert = await newExpert();
    const subscriber = await newClient("has-sub");
    await makeSubscriber(subscriber.userId);
    const other = await newClient("no-sub");
    expect((await screen(`/ask/${expert.expertId}`, other.cookie)).html).not.toContain(
      "Included in your subscription",
    );
    const lapsed = await newClient("lapsed-sub");
    await makeSubscriber(lapsed.userId, { endsInDays: -1 });
    const page = await screen(`/ask/${expert.expertId}`, lapsed.cookie);
    expect(page.html).not.toContain("Included in your subscription");
    expect(page.html).toContain("Test Mode Active");
  });
});

describe("/checkout/{type}/{expertId}", () => {
  it("sends questions to the Ask screen and sessions to booking; anything else is a 404", async () => {
    expect((await get("/checkout/question/12")).headers.get("Location")).toBe("/ask/12");
    expect((await get("/checkout/session/12")).headers.get("Location")).toBe("/book/12");
    for (const path of ["/checkout/subscription/12", "/checkout/toString/12", "/checkout/constructor/1"]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toContain("404 Page Not Found");
    }
  });
});
