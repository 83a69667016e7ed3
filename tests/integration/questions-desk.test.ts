import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { experts, questions } from "~/db/schema.server";
import { db, get, postForm } from "./support/accounts";
import {
  getLedger,
  getQuestion,
  makeSubscriber,
  newAdmin,
  newClient,
  newExpert,
  notificationsOf,
  pendingQuestion,
  toastFrom,
} from "./support/questions";

const ANSWER = "Start with a fixed-price package of three sessions and a written plan.";

const answer = (questionId: number, cookie: string, fields: Record<string, string> = {}) =>
  postForm(`/questions/${questionId}/answer`, { answer: ANSWER, status: "answered", ...fields }, { cookie });

describe("the expert's question desk (/expert/questions)", () => {
  it("lists only the expert's own questions, never unpaid ones, with SPEC.md's table", async () => {
    const expert = await newExpert();
    const other = await newExpert("other");
    const client = await newClient();
    await pendingQuestion(client.userId, expert.expertId, {
      question: "Mine: how do I set my first prices?",
    });
    await pendingQuestion(client.userId, expert.expertId, {
      question: "Mine too: answered already, thank you.",
      status: "answered",
      answer: "An answer that is long enough.",
      answeredAt: new Date(),
    });
    await pendingQuestion(client.userId, expert.expertId, {
      question: "Unpaid: never shown to the expert.",
      status: "awaiting_payment",
      paymentState: "none",
      paidAt: null,
      deadlineAt: null,
    });
    await pendingQuestion(client.userId, other.expertId, { question: "Someone else's question, not mine." });

    const response = await get("/expert/questions", expert.cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Mine: how do I set my first prices?");
    expect(html).toContain("Mine too: answered already");
    expect(html).not.toContain("Unpaid: never shown");
    expect(html).not.toContain("Someone else&#x27;s question");
    for (const text of [
      "Pending (1)",
      "Answered (1)",
      "All (2)",
      ">ID<",
      ">Name<",
      ">Question<",
      ">Status<",
      ">Date<",
    ]) {
      expect(html).toContain(text);
    }
    expect(html).toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it("dates the expert's questions in the expert's own zone, on the desk and the dashboard", async () => {
    const expert = await newExpert("kolkata");
    await db().update(experts).set({ timeZone: "Asia/Kolkata" }).where(eq(experts.id, expert.expertId));
    const client = await newClient();
    // 20:00 UTC on March 10 is 01:30 on March 11 in Kolkata.
    const askedAt = new Date("2026-03-10T20:00:00Z");
    await pendingQuestion(client.userId, expert.expertId, {
      question: "Asked late in the evening, UTC",
      createdAt: askedAt,
      paidAt: askedAt,
      deadlineAt: new Date(askedAt.getTime() + 24 * 60 * 60 * 1000),
    });

    const desk = await (await get("/expert/questions", expert.cookie)).text();
    expect(desk).toContain('<td data-label="Date">2026-03-11</td>');
    expect(desk).not.toContain("2026-03-10");
    const dashboard = await (await get("/expert/dashboard", expert.cookie)).text();
    expect(dashboard).toMatch(/asked(<!-- -->)? (<!-- -->)?Wed, Mar 11, 2026/);
  });

  it("counts every question in its tab and pages Answered and All 50 at a time", async () => {
    const expert = await newExpert("busy");
    const client = await newClient();
    const start = Date.now() - 90 * 24 * 60 * 60 * 1000;
    const text = (n: number) => `Answered question no. ${String(n).padStart(2, "0")} about pricing`;
    // Oldest first: no. 01 is the oldest of 53 answered questions, older than the 2 open ones.
    for (let n = 1; n <= 53; n++) {
      const askedAt = new Date(start + n * 60_000);
      await pendingQuestion(client.userId, expert.expertId, {
        question: text(n),
        status: "answered",
        answer: "An answer that is long enough.",
        answeredAt: askedAt,
        createdAt: askedAt,
        paidAt: askedAt,
      });
    }
    await pendingQuestion(client.userId, expert.expertId, { question: "Open question one, still waiting" });
    await pendingQuestion(client.userId, expert.expertId, { question: "Open question two, still waiting" });

    const first = await (await get("/expert/questions", expert.cookie)).text();
    for (const label of ["Pending (2)", "Answered (53)", "All (55)"]) expect(first).toContain(label);
    expect(first).toContain("Open question one, still waiting");
    expect(first).toContain(text(53));
    expect(first).not.toContain(text(3));

    const answeredPage2 = await (await get("/expert/questions?tab=answered&page=2", expert.cookie)).text();
    expect(answeredPage2).toMatch(/aria-selected="true"[^>]*>Answered \(53\)/);
    expect(answeredPage2.replaceAll("<!-- -->", "")).toContain("Page 2 of 2");
    // Answered's second page holds no. 01 to 03, All's no. 01 to 05; neither goes further.
    for (const n of [1, 2, 3, 4, 5]) expect(answeredPage2).toContain(text(n));
    expect(answeredPage2).not.toContain(text(6));
    // Every open question is on every page: they expire within a day and are never paged.
    expect(answeredPage2).toContain("Open question two, still waiting");

    const past = await get("/expert/questions?tab=all&page=9", expert.cookie);
    expect(past.status).toBe(302);
    expect(past.headers.get("Location")).toBe("/expert/questions?tab=all&page=2");
    // Each tab to its own last page: with 50 declined questions more, All has 3 pages, Answered 2.
    for (let n = 1; n <= 50; n++) {
      await pendingQuestion(client.userId, expert.expertId, {
        question: `Declined no. ${n}`,
        status: "rejected",
      });
    }
    const pastAnswered = await get("/expert/questions?tab=answered&page=9", expert.cookie);
    expect(pastAnswered.headers.get("Location")).toBe("/expert/questions?tab=answered&page=2");
    const pastAll = await get("/expert/questions?tab=all&page=9", expert.cookie);
    expect(pastAll.headers.get("Location")).toBe("/expert/questions?tab=all&page=3");
  });

  it("shows SPEC.md's empty state", async () => {
    const expert = await newExpert();
    expect(await (await get("/expert/questions", expert.cookie)).text()).toContain("No questions found.");
  });

  it("sends clients to /forbidden and signed-out visitors to /expert/login", async () => {
    const client = await newClient();
    expect((await get("/expert/questions", client.cookie)).headers.get("Location")).toBe("/forbidden");
    expect((await get("/expert/questions")).headers.get("Location")).toMatch(/^\/expert\/login/);
  });
});

describe("answering a question", () => {
  it("answers by text: answered, the expert is owed the fee, the asker is told", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId, { amount: 1500 });
    const response = await answer(question.id, expert.cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, toast: { title: "Success!" } });

    const stored = await getQuestion(question.id);
    expect(stored).toMatchObject({ status: "answered", answer: ANSWER, paymentState: "test_mode" });
    expect(stored.answeredAt).toBeInstanceOf(Date);
    const notes = await notificationsOf(client.userId);
    expect(notes).toEqual([
      expect.objectContaining({ kind: "question_answered", link: `/questions/${question.id}` }),
    ]);

    const page = await (await get(`/questions/${question.id}`, client.cookie)).text();
    expect(page).toContain(ANSWER);
    expect(page).toContain("Answered");
  });

  it("records the ledger line of a question asked in test mode as earned when answered", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const asked = await postForm(
      `/ask/${expert.expertId}`,
      { question: "What should my first consulting package include?" },
      { cookie: client.cookie },
    );
    const id = Number(new URL(asked.headers.get("Location")!, "https://x").searchParams.get("question"));
    await answer(id, expert.cookie);
    expect(await getLedger(id)).toMatchObject({ status: "captured", amount: 1500 });
    expect((await getLedger(id)).settledAt).toBeInstanceOf(Date);
  });

  it("refuses an answer under 10 characters with SPEC.md's message, changing nothing", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    for (const text of ["", "too short"]) {
      const response = await answer(question.id, expert.cookie, { answer: text });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        ok: false,
        fieldErrors: { answer: ["Your answer must be at least 10 characters long"] },
      });
    }
    expect((await getQuestion(question.id)).status).toBe("pending");
  });

  it("shows HTML and script in an answer as text on the asker's page", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    await answer(question.id, expert.cookie, {
      answer: `<script>alert("answer")</script> and <b>bold</b> advice`,
    });
    const html = await (await get(`/questions/${question.id}`, client.cookie)).text();
    expect(html).not.toContain('<script>alert("answer")');
    expect(html).not.toContain("<b>bold</b>");
    expect(html).toContain("&lt;script&gt;alert(");
  });

  it("does not let an expert answer another expert's question (404, nothing changed)", async () => {
    const expert = await newExpert();
    const intruder = await newExpert("intruder");
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const response = await answer(question.id, intruder.cookie);
    expect(response.status).toBe(404);
    expect(await getQuestion(question.id)).toMatchObject({ status: "pending", answer: null });
    // Neither can a client, nor can they decline it.
    expect((await answer(question.id, client.cookie)).status).toBe(404);
    expect(
      (await postForm(`/questions/${question.id}/decline`, {}, { cookie: intruder.cookie })).status,
    ).toBe(404);
    expect((await postForm(`/questions/${question.id}/answer`, { answer: ANSWER })).status).toBe(401);
  });

  it("refuses a second answer (409) and keeps the first", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    expect((await answer(question.id, expert.cookie)).status).toBe(200);
    const again = await answer(question.id, expert.cookie, {
      answer: "A different, second answer entirely.",
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ message: "This question has already been answered." });
    expect((await getQuestion(question.id)).answer).toBe(ANSWER);
    expect(await notificationsOf(client.userId)).toHaveLength(1);
  });

  it("answers exactly once when two answers arrive at the same instant", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const responses = await Promise.all([
      answer(question.id, expert.cookie),
      answer(question.id, expert.cookie),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
  });

  it("keeps a draft when Pending is chosen: the asker sees the expert at work, not the draft", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const response = await answer(question.id, expert.cookie, {
      status: "pending",
      answer: "Draft: half-written.",
    });
    expect(response.status).toBe(200);
    expect(await getQuestion(question.id)).toMatchObject({
      status: "in_progress",
      answer: "Draft: half-written.",
    });
    const page = await (await get(`/questions/${question.id}`, client.cookie)).text();
    expect(page).toContain("Expert is working on your answer");
    expect(page).not.toContain("Draft: half-written.");
    // Answering later sends the final answer.
    expect((await answer(question.id, expert.cookie)).status).toBe(200);
    expect((await getQuestion(question.id)).status).toBe("answered");
  });

  it("refuses to answer after the 24-hour deadline", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const paidAt = new Date(Date.now() - 25 * 60 * 60 * 1000);
    const question = await pendingQuestion(client.userId, expert.expertId, { paidAt });
    const response = await answer(question.id, expert.cookie);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      message: "The 24-hour answer window for this question has passed.",
    });
  });

  it("sends a form post without JavaScript back to the desk with a toast", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const { SELF } = await import("cloudflare:test");
    const response = await SELF.fetch(`https://marketplace.test/questions/${question.id}/answer`, {
      method: "POST",
      redirect: "manual",
      headers: {
        Origin: "https://marketplace.test",
        "Content-Type": "application/x-www-form-urlencoded",
        "Sec-Fetch-Mode": "navigate",
        Cookie: expert.cookie,
      },
      body: new URLSearchParams({ answer: ANSWER }),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/expert/questions");
    expect(toastFrom(response)).toMatchObject({
      title: "Success!",
      description: "Answer submitted successfully.",
    });
  });
});

describe("declining a question", () => {
  it("rejects it, tells the asker they were not charged, and owes the expert nothing", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const asked = await postForm(
      `/ask/${expert.expertId}`,
      { question: "Could you review my entire five-year plan in detail?" },
      { cookie: client.cookie },
    );
    const id = Number(new URL(asked.headers.get("Location")!, "https://x").searchParams.get("question"));
    const response = await postForm(`/questions/${id}/decline`, {}, { cookie: expert.cookie });
    expect(response.status).toBe(200);
    expect(await getQuestion(id)).toMatchObject({ status: "rejected" });
    expect(await getLedger(id)).toMatchObject({ status: "cancelled" });
    const [note] = await notificationsOf(client.userId);
    expect(note).toMatchObject({ kind: "question_declined" });
    expect(note.body).toBe(`${expert.username} Name declined your question. You were not charged.`);
    expect(await (await get(`/questions/${id}`, client.cookie)).text()).toContain("You were not charged.");
    // A declined question cannot be answered afterwards.
    expect((await answer(id, expert.cookie)).status).toBe(409);
  });

  it("says an admin's decline was not the expert's", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const admin = await newAdmin();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const response = await postForm(`/questions/${question.id}/decline`, {}, { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(await getQuestion(question.id)).toMatchObject({ status: "rejected" });
    const [note] = await notificationsOf(client.userId);
    expect(note.body).toBe(`Your question to ${expert.username} Name was declined. You were not charged.`);
    // And the expert hears who closed their question.
    expect(await notificationsOf(expert.userId)).toEqual([
      expect.objectContaining({
        title: "An administrator declined one of your questions",
        body: `An administrator declined Test Asker's question #${question.id} for you.`,
        link: "/expert/questions",
      }),
    ]);
  });

  it("gives a subscriber the day's question back", async () => {
    const expert = await newExpert();
    const client = await newClient("subscriber");
    await makeSubscriber(client.userId);
    const first = await postForm(
      `/ask/${expert.expertId}`,
      { question: "First question of the day, please." },
      { cookie: client.cookie },
    );
    const id = Number(new URL(first.headers.get("Location")!, "https://x").searchParams.get("question"));
    await postForm(`/questions/${id}/decline`, {}, { cookie: expert.cookie });
    expect((await getQuestion(id)).subscriptionDay).toBeNull();
    const [note] = await notificationsOf(client.userId);
    expect(note.body).toBe(
      `${expert.username} Name declined your question. Today's question is yours to ask again.`,
    );
    const second = await postForm(
      `/ask/${expert.expertId}`,
      { question: "Another question the same day." },
      { cookie: client.cookie },
    );
    expect(second.status).toBe(302);
  });

  it("promises no question back today for one asked on an earlier day", async () => {
    const expert = await newExpert();
    const client = await newClient("subscriber");
    await makeSubscriber(client.userId);
    const today = await postForm(
      `/ask/${expert.expertId}`,
      { question: "Today's question, already asked." },
      { cookie: client.cookie },
    );
    expect(today.status).toBe(302);
    // Asked in the last second of yesterday (UTC), so still open.
    const paidAt = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
    paidAt.setUTCSeconds(-1);
    const earlier = await pendingQuestion(client.userId, expert.expertId, {
      question: "Yesterday's question, declined today.",
      paymentState: "subscription",
      subscriptionDay: paidAt.toISOString().slice(0, 10),
      paidAt,
      deadlineAt: new Date(paidAt.getTime() + 24 * 60 * 60 * 1000),
    });
    await postForm(`/questions/${earlier.id}/decline`, {}, { cookie: expert.cookie });
    const declined = (await notificationsOf(client.userId)).find((note) => note.kind === "question_declined");
    expect(declined?.body).toBe(
      `${expert.username} Name declined your question. You can ask again with your next daily question.`,
    );
    // As it says: today's question is still the one asked.
    const again = await postForm(
      `/ask/${expert.expertId}`,
      { question: "A second question today, refused." },
      { cookie: client.cookie },
    );
    expect(again.status).toBe(409);
  });
});

describe("the admin area (/admin)", () => {
  it("lists every question, filtered all, pending or answered", async () => {
    const admin = await newAdmin();
    const first = await newExpert("first");
    const second = await newExpert("second");
    const client = await newClient();
    await pendingQuestion(client.userId, first.expertId, { question: "Admin sees the pending one." });
    await pendingQuestion(client.userId, second.expertId, {
      question: "Admin sees the answered one.",
      status: "answered",
      answer: "Long enough answer text.",
      answeredAt: new Date(),
    });
    const all = await (await get("/admin", admin.cookie)).text();
    expect(all).toContain("Admin sees the pending one.");
    expect(all).toContain("Admin sees the answered one.");
    expect(all).toContain("Logout");
    const pending = await (await get("/admin?filter=pending", admin.cookie)).text();
    expect(pending).toContain("Admin sees the pending one.");
    expect(pending).not.toContain("Admin sees the answered one.");
    const answered = await (await get("/admin?filter=answered", admin.cookie)).text();
    expect(answered).not.toContain("Admin sees the pending one.");
    expect(answered).toContain("Admin sees the answered one.");
    expect((await get("/admin/dashboard?filter=bogus", admin.cookie)).status).toBe(200);
    // Both addresses of the question list mark its section link, and only it, as the current one.
    for (const path of ["/admin", "/admin/dashboard"]) {
      const html = await (await get(path, admin.cookie)).text();
      const sectionLinks = html.match(/<a class="section-nav__link"[^>]*>[^<]*<\/a>/g) ?? [];
      expect(sectionLinks, path).toHaveLength(4);
      expect(
        sectionLinks.filter((link) => link.includes('aria-current="page"')),
        path,
      ).toEqual([expect.stringMatching(/href="\/admin"[^>]*>Questions<\/a>$/)]);
    }
  });

  it("says so when the question in the address does not exist, and still lists the others", async () => {
    const admin = await newAdmin();
    const client = await newClient();
    const expert = await newExpert();
    const question = await pendingQuestion(client.userId, expert.expertId);
    for (const param of ["99999", "abc"]) {
      const response = await get(`/admin?question=${param}`, admin.cookie);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain("That question does not exist, or no longer does.");
      expect(html).not.toContain("Answer Question #");
      expect(html).toContain(`href="/admin?question=${question.id}"`);
    }
    const found = await (await get(`/admin?question=${question.id}`, admin.cookie)).text();
    expect(found).not.toContain("does not exist");
  });

  it("opens an answer form titled with the question's number, and answers any expert's question", async () => {
    const admin = await newAdmin();
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const html = await (await get(`/admin?question=${question.id}`, admin.cookie)).text();
    expect(html).toContain(`Answer Question #${question.id}`);
    // The tab says which question is open, as the heading does.
    expect(html).toContain(`<title>Answer Question #${question.id} | Admin | Expert Answers</title>`);
    // The answer box is marked required (screen readers say so; the stylesheet stars its label).
    expect(html).toMatch(/<textarea[^>]*name="answer"[^>]*required=""/);
    expect(await (await get("/admin", admin.cookie)).text()).toContain(
      "<title>Admin | Expert Answers</title>",
    );

    const empty = await postForm(
      `/questions/${question.id}/answer`,
      { who: "admin", answer: "" },
      { cookie: admin.cookie },
    );
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({
      fieldErrors: { answer: ["Please provide either a text answer or an audio response."] },
    });
    const response = await answer(question.id, admin.cookie, { who: "admin" });
    expect(response.status).toBe(200);
    expect((await getQuestion(question.id)).status).toBe("answered");
    // Told as it happened: the expert did not write it, and hears that an admin did.
    const [toClient] = await notificationsOf(client.userId);
    expect(toClient.body).toBe(`Your question to ${expert.username} Name was answered.`);
    expect(await notificationsOf(expert.userId)).toEqual([
      expect.objectContaining({
        title: "An administrator answered one of your questions",
        body: `An administrator answered Test Asker's question #${question.id} for you.`,
      }),
    ]);
  });

  it("keeps clients out (/forbidden) and sends signed-out visitors to /admin/login", async () => {
    const client = await newClient();
    expect((await get("/admin", client.cookie)).headers.get("Location")).toBe("/forbidden");
    expect((await get("/admin")).headers.get("Location")).toMatch(/^\/admin\/login/);
  });
});

describe("who may read a question", () => {
  it("shows it to its asker, its expert and admins; anyone else gets a 404", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const stranger = await newClient("stranger");
    const otherExpert = await newExpert("other");
    const admin = await newAdmin();
    const question = await pendingQuestion(client.userId, expert.expertId, {
      question: "Private question text here.",
    });
    for (const person of [client, expert, admin]) {
      const response = await get(`/questions/${question.id}`, person.cookie);
      expect(response.status, person.username).toBe(200);
      expect(await response.text()).toContain("Private question text here.");
    }
    for (const person of [stranger, otherExpert]) {
      const response = await get(`/questions/${question.id}`, person.cookie);
      expect(response.status, person.username).toBe(404);
      expect(await response.text()).not.toContain("Private question text here.");
    }
    expect((await get(`/questions/${question.id}`)).headers.get("Location")).toMatch(/^\/auth/);
  });

  it("keeps a question not yet paid for from its expert: only the asker and admins see it", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const admin = await newAdmin();
    const question = await pendingQuestion(client.userId, expert.expertId, {
      question: "Unpaid private question text.",
      status: "awaiting_payment",
      paidAt: null,
    });
    for (const person of [client, admin]) {
      expect((await get(`/questions/${question.id}`, person.cookie)).status, person.username).toBe(200);
    }
    const response = await get(`/questions/${question.id}`, expert.cookie);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("Unpaid private question text.");

    // Nor once it expired unpaid (its PaymentIntent cancelled, or its asker's account closed).
    await db()
      .update(questions)
      .set({ status: "expired", expiredAt: new Date() })
      .where(eq(questions.id, question.id));
    expect((await get(`/questions/${question.id}`, expert.cookie)).status).toBe(404);
    expect(await (await get("/expert/questions", expert.cookie)).text()).not.toContain(
      "Unpaid private question text.",
    );
    expect((await answer(question.id, expert.cookie)).status).toBe(404);
  });

  it("lists a client's own questions only at GET /api/questions", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const other = await newClient("other");
    await pendingQuestion(client.userId, expert.expertId, { question: "Client's own question text." });
    await pendingQuestion(other.userId, expert.expertId, { question: "The other client's question." });
    const response = await get("/api/questions", client.cookie);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const list = (await response.json()) as { question: string }[];
    expect(list.map((item) => item.question)).toEqual(["Client's own question text."]);
  });
});
