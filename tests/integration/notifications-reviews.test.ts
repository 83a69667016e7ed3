/**
 * Notifications (the bell, the list, mark as read), the e-mail outbox delivered through a local fake
 * of the provider (Resend), reviews from the dashboard, and the admin view of the scheduled runs.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  cronRuns,
  emailOutbox,
  notifications,
  questions,
  rateLimits,
  reviews,
  stripeEvents,
} from "~/db/schema.server";
import { notify } from "~/models/notifications.server";
import { insertBooking, insertQuestion } from "../factories";
import { db, get, postForm } from "./support/accounts";
import { newAdmin, newClient, newExpert, pendingQuestion } from "./support/questions";
import { EMAIL_VARS, fakeEmailProvider, lastRun, outboxTo, runAt } from "./support/scheduled";

const HOUR = 60 * 60 * 1000;

describe("notifications", () => {
  it("shows the unread count on the bell, lists the person's messages and marks them read", async () => {
    const client = await newClient();
    const other = await newClient();
    for (const n of [1, 2]) {
      await notify(db(), {
        userId: client.userId,
        kind: "question_answered",
        title: `Answer number ${n}`,
        body: "Your expert answered.",
        link: "/dashboard/questions",
        dedupeKey: `test:${client.userId}:${n}`,
      });
    }
    await notify(db(), {
      userId: other.userId,
      kind: "question_answered",
      title: "Someone else's answer",
      body: "Not yours.",
      dedupeKey: `test:${other.userId}`,
    });

    const home = await (await get("/", client.cookie)).text();
    expect(home).toContain('aria-label="Notifications, 2 unread"');

    const list = await (await get("/notifications", client.cookie)).text();
    expect(list).toContain("Answer number 1");
    expect(list).toContain("Answer number 2");
    expect(list).not.toContain("Someone else&#x27;s answer");

    const [first, second] = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.userId, client.userId));
    const [theirs] = await db().select().from(notifications).where(eq(notifications.userId, other.userId));
    // Someone else's notification cannot be marked read.
    const foreign = await postForm(
      "/notifications",
      { intent: "read", notificationId: String(theirs.id) },
      { cookie: client.cookie },
    );
    expect(foreign.status).toBe(200);
    expect(
      (await db().select().from(notifications).where(eq(notifications.id, theirs.id)))[0].readAt,
    ).toBeNull();

    const one = await postForm(
      "/notifications",
      { intent: "read", notificationId: String(first.id) },
      { cookie: client.cookie },
    );
    expect(one.status).toBe(200);
    expect(await (await get("/", client.cookie)).text()).toContain('aria-label="Notifications, 1 unread"');

    await postForm("/notifications", { intent: "read-all" }, { cookie: client.cookie });
    expect(await (await get("/", client.cookie)).text()).toContain('aria-label="Notifications, none unread"');
    const [row] = await db().select().from(notifications).where(eq(notifications.id, second.id));
    expect(row.readAt).toBeInstanceOf(Date);
  });

  it("counts, pages to and marks read an unread notification older than the newest 100 listed", async () => {
    const client = await newClient();
    const hour = 3_600_000;
    const row = (title: string, age: number, readAt: Date | null) => ({
      userId: client.userId,
      kind: "question_answered",
      title,
      body: "Your expert answered.",
      createdAt: new Date(Date.now() - age * hour),
      readAt,
      dedupeKey: `test:${client.userId}:${title}`,
    });
    await db()
      .insert(notifications)
      .values(row("The oldest, unread", 200, null));
    // Ten rows an insert: D1 takes at most 100 bound values a query.
    for (let first = 0; first < 100; first += 10) {
      await db()
        .insert(notifications)
        .values(Array.from({ length: 10 }, (_, n) => row(`Read number ${first + n}`, first + n, new Date())));
    }
    const list = await (await get("/notifications", client.cookie)).text();
    expect(list).not.toContain("The oldest, unread");
    expect(list).toContain("1 unread");
    expect(list).not.toContain("You&#x27;re all caught up.");
    expect(list).toContain("Mark all as read");
    // The 101st is on the next page, reached from this one; a page past the end goes to the first.
    expect(list).toContain('href="/notifications?page=2"');
    expect(list).not.toContain("Newer notifications");
    const older = await (await get("/notifications?page=2", client.cookie)).text();
    expect(older).toContain("The oldest, unread");
    expect(older).not.toContain("Read number 0<");
    expect(older).toContain('href="/notifications">Newer notifications');
    expect(older).not.toContain("Older notifications");
    const past = await get("/notifications?page=9", client.cookie);
    expect(past.status).toBe(302);
    expect(past.headers.get("Location")).toBe("/notifications");

    // Posted without JavaScript: the page that answers is rendered in the same request.
    const marked = await postForm("/notifications", { intent: "read-all" }, { cookie: client.cookie });
    expect(marked.status).toBe(200);
    for (const after of [await marked.text(), await (await get("/notifications", client.cookie)).text()]) {
      expect(after).toContain("You&#x27;re all caught up.");
      expect(after).not.toContain("Mark all as read");
      expect(after).toContain('aria-label="Notifications, none unread"');
    }
  });

  it("reads a notification when it is opened, and opens only the person's own", async () => {
    const client = await newClient();
    const other = await newClient();
    const note = async (userId: number, link: string | null, key: string) => {
      await notify(db(), {
        userId,
        kind: "question_answered",
        title: "Answered",
        body: "Yes.",
        link,
        dedupeKey: key,
      });
      const [row] = await db()
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.dedupeKey, key)));
      return row;
    };
    const mine = await note(client.userId, "/dashboard/questions", "open:mine");
    const theirs = await note(other.userId, "/dashboard/bookings", "open:theirs");
    const outside = await note(client.userId, "//evil.example/phish", "open:outside");
    const open = (id: number) =>
      postForm("/notifications", { intent: "open", notificationId: String(id) }, { cookie: client.cookie });

    const opened = await open(mine.id);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe("/dashboard/questions");
    const readAt = (await db().select().from(notifications).where(eq(notifications.id, mine.id)))[0].readAt;
    expect(readAt).toBeInstanceOf(Date);
    // Opened again, it keeps the time it was first read.
    await open(mine.id);
    expect((await db().select().from(notifications).where(eq(notifications.id, mine.id)))[0].readAt).toEqual(
      readAt,
    );

    // Someone else's is neither read nor followed; a link out of the app is never followed.
    const foreign = await open(theirs.id);
    expect(foreign.headers.get("Location")).toBe("/notifications");
    expect(
      (await db().select().from(notifications).where(eq(notifications.id, theirs.id)))[0].readAt,
    ).toBeNull();
    expect((await open(outside.id)).headers.get("Location")).toBe("/notifications");
  });

  it("refuses an unknown action with 400 and sends a signed-out visitor to sign in", async () => {
    const client = await newClient();
    expect(
      (await postForm("/notifications", { intent: "delete-all" }, { cookie: client.cookie })).status,
    ).toBe(400);
    expect(
      (await postForm("/notifications", { intent: "read", notificationId: "x" }, { cookie: client.cookie }))
        .status,
    ).toBe(400);
    const anonymous = await get("/notifications");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toContain("/auth");
  });

  it("tells client and expert when a question expires, with the not-charged status on the dashboard", async () => {
    const expert = await newExpert("expiry");
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId, {
      paidAt: new Date(Date.now() - 25 * HOUR),
    });
    await runAt(Date.now());
    const list = await (await get("/notifications", client.cookie)).text();
    expect(list).toContain("No answer in time: you were not charged");
    const dashboard = await (await get("/dashboard/questions", client.cookie)).text();
    expect(dashboard).toContain("No answer in time: you were not charged.");
    const expertList = await (await get("/notifications", expert.cookie)).text();
    expect(expertList).toContain("A question expired unanswered");
    expect(question.id).toBeGreaterThan(0);
  });
});

describe("the e-mail outbox", () => {
  it("only logs the e-mail when no provider key is configured", async () => {
    const client = await newClient();
    await notify(db(), {
      userId: client.userId,
      kind: "question_answered",
      title: "Logged only",
      body: "No provider.",
      dedupeKey: "logged-only",
    });
    const provider = fakeEmailProvider();
    await runAt(Date.now(), { fetch: provider.fetch });
    expect(provider.sent).toEqual([]);
    const [row] = await outboxTo(`${client.username}@example.com`);
    expect(row).toMatchObject({ status: "logged", attempts: 0 });
  });

  it("sends through the provider with the key, escaping every piece of user text in the HTML", async () => {
    const client = await newClient();
    await notify(db(), {
      userId: client.userId,
      kind: "question_answered",
      title: "Answer from <Eve & Co>",
      body: 'Eve said: <script>alert("x")</script>',
      link: "/questions/7",
      dedupeKey: "escaped",
    });
    const provider = fakeEmailProvider();
    const run = await runAt(Date.now(), { fetch: provider.fetch, vars: EMAIL_VARS });
    expect(run.summary.emailsSent).toBeGreaterThanOrEqual(1);
    const mail = provider.sent.find(
      (sent) => (sent.body.to as string[])[0] === `${client.username}@example.com`,
    )!;
    expect(mail.url).toBe("http://email.fake/emails");
    expect(mail.headers.authorization).toBe(`Bearer ${EMAIL_VARS.EMAIL_API_KEY}`);
    expect(mail.headers["idempotency-key"]).toMatch(/^email-outbox-\d+$/);
    expect(mail.body).toMatchObject({ from: EMAIL_VARS.EMAIL_FROM, subject: "Answer from <Eve & Co>" });
    const html = mail.body.html as string;
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("Answer from &lt;Eve &amp; Co&gt;");
    expect(html).toContain('href="https://expertanswers.example/questions/7"');
    expect(mail.body.text).toContain("https://expertanswers.example/questions/7");
    const [row] = await outboxTo(`${client.username}@example.com`);
    expect(row).toMatchObject({
      status: "sent",
      attempts: 1,
      providerMessageId: expect.stringMatching(/^email_/),
    });

    // A second run sends nothing again.
    const again = fakeEmailProvider();
    await runAt(Date.now() + 5 * 60 * 1000, { fetch: again.fetch, vars: EMAIL_VARS });
    expect(
      again.sent.filter((sent) => (sent.body.to as string[])[0] === `${client.username}@example.com`),
    ).toEqual([]);
  });

  it("retries a refused e-mail with backoff, records each refusal, and gives up after six tries", async () => {
    const client = await newClient();
    await notify(db(), {
      userId: client.userId,
      kind: "question_answered",
      title: "Retried",
      body: "Try again.",
      dedupeKey: "retried",
    });
    // Earlier tests' rows are delivered first so that only this one is left.
    await runAt(Date.now() - 60_000, { fetch: fakeEmailProvider().fetch });
    const [queued] = await outboxTo(`${client.username}@example.com`);
    await db()
      .update(emailOutbox)
      .set({ status: "pending", nextAttemptAt: null })
      .where(eq(emailOutbox.id, queued.id));

    const provider = fakeEmailProvider();
    provider.failNext(100, 503);
    const start = Date.now();
    const first = await runAt(start, { fetch: provider.fetch, vars: EMAIL_VARS });
    expect(first.failures).toContainEqual(expect.objectContaining({ task: "email", id: queued.id }));
    let [row] = await outboxTo(`${client.username}@example.com`);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: expect.stringContaining("503") });
    expect(row.nextAttemptAt!.getTime()).toBe(start + 5 * 60 * 1000);

    // Not due yet: nothing is tried.
    await runAt(start + 4 * 60 * 1000, { fetch: provider.fetch, vars: EMAIL_VARS });
    [row] = await outboxTo(`${client.username}@example.com`);
    expect(row.attempts).toBe(1);

    // Each retry waits twice as long; after the sixth refusal the row is given up and admins see it.
    let at = start;
    for (let attempt = 1; attempt < 6; attempt++) {
      at += 5 * 60 * 1000 * 2 ** (attempt - 1);
      await runAt(at, { fetch: provider.fetch, vars: EMAIL_VARS });
    }
    [row] = await outboxTo(`${client.username}@example.com`);
    expect(row).toMatchObject({ status: "failed", attempts: 6 });
    const admin = await newAdmin();
    expect(await (await get("/admin/runs", admin.cookie)).text()).toContain(
      "given up after repeated refusals",
    );
  });

  it("sends a refused e-mail on a later run once the provider recovers", async () => {
    const client = await newClient();
    await notify(db(), {
      userId: client.userId,
      kind: "question_answered",
      title: "Recovers",
      body: "Later.",
      dedupeKey: "recovers",
    });
    const provider = fakeEmailProvider();
    provider.failNext(1, 500);
    const start = Date.now() + HOUR;
    await runAt(start, { fetch: provider.fetch, vars: EMAIL_VARS });
    await runAt(start + 5 * 60 * 1000, { fetch: provider.fetch, vars: EMAIL_VARS });
    const [row] = await outboxTo(`${client.username}@example.com`);
    expect(row).toMatchObject({ status: "sent", attempts: 2, lastError: null });
  });
});

describe("e-mail after an account is deleted", () => {
  it("is not sent, and no copy of the address stays in the outbox", async () => {
    const client = await newClient();
    const address = `${client.username}@example.com`;
    await notify(db(), {
      userId: client.userId,
      kind: "question_answered",
      title: "Your question was answered",
      body: "Someone answered your question.",
      link: "/dashboard/questions",
      dedupeKey: `deleted-account:${client.userId}`,
    });
    expect(await outboxTo(address)).toHaveLength(1);
    expect(
      (await postForm("/dashboard/settings", { intent: "delete" }, { cookie: client.cookie })).status,
    ).toBe(302);
    const provider = fakeEmailProvider();
    await runAt(Date.now(), { vars: EMAIL_VARS, fetch: provider.fetch });
    expect(provider.sent.filter((email) => JSON.stringify(email.body).includes(address))).toEqual([]);
    expect(await outboxTo(address)).toEqual([]);
  });
});

describe("reviews", () => {
  const rate = (cookie: string, fields: Record<string, string>) => postForm("/reviews", fields, { cookie });

  /** A new client's question to a new expert, answered: what the Rate form is for. */
  async function answeredQuestion(expertName: string) {
    const expert = await newExpert(expertName);
    const client = await newClient();
    const question = await insertQuestion(db(), {
      userId: client.userId,
      expertId: expert.expertId,
      status: "answered",
      answer: "Do it.",
      answeredAt: new Date(),
    });
    return { expert, client, question };
  }

  it("names each Rate form by its question, so a list of answers has no two alike", async () => {
    const { expert, client, question } = await answeredQuestion("rated-twice");
    const second = await insertQuestion(db(), {
      userId: client.userId,
      expertId: expert.expertId,
      status: "answered",
      answer: "Do it again.",
      answeredAt: new Date(),
    });
    const dashboard = await (await get("/dashboard/questions", client.cookie)).text();
    const names = [...dashboard.matchAll(/<legend id="([^"]+)">(.*?)<\/legend>/g)]
      .filter(([, , text]) => text.startsWith("Rate this answer"))
      .map(([, , text]) => text.replace(/<[^>]+>/g, ""));
    expect(names.sort()).toEqual(
      [`Rate this answer, question #${question.id}`, `Rate this answer, question #${second.id}`].sort(),
    );
  });

  it("lets the client rate an answered question once; the expert's rating follows at once", async () => {
    const { expert, client, question } = await answeredQuestion("rated");
    // The profile is read (and cached in KV) before the review.
    const before = await (await get(`/expert/${expert.expertId}`, client.cookie)).text();
    expect(before).toContain("no reviews yet");

    const dashboard = await (await get("/dashboard/questions", client.cookie)).text();
    expect(dashboard).toContain("Rate this answer");

    const response = await rate(client.cookie, {
      subject: "question",
      questionId: String(question.id),
      rating: "4",
      comment: "Clear and quick.",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, rating: 4 });
    const after = await (await get(`/expert/${expert.expertId}`, client.cookie)).text();
    expect(after).toContain("Rated 4.0 out of 5 from 1 review");
    expect(await (await get("/dashboard/questions", client.cookie)).text()).toContain(
      "You rated this 4 out of 5 stars",
    );

    const second = await rate(client.cookie, {
      subject: "question",
      questionId: String(question.id),
      rating: "1",
    });
    expect(second.status).toBe(409);
    expect(JSON.stringify(await second.json())).toContain("You have already rated this.");
    const rows = await db().select().from(reviews).where(eq(reviews.questionId, question.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ rating: 4, comment: "Clear and quick.", expertId: expert.expertId });

    const portal = await (await get("/expert/dashboard", expert.cookie)).text();
    expect(portal).toMatch(/Average Rating[\s\S]*4\.0/);
  });

  it("offers the Rate form on the answered question's own page (where its notification leads) to its asker only", async () => {
    const { expert, client, question } = await answeredQuestion("rated-on-page");
    const page = async (cookie: string) => (await get(`/questions/${question.id}`, cookie)).text();
    const before = await page(client.cookie);
    expect(before).toContain(
      `Rate this answer<span class="visually-hidden">, question #${question.id}</span>`,
    );
    expect(before).toMatch(/<input type="hidden" name="redirectTo" value="\/questions\/\d+"\/>/);
    expect(await page(expert.cookie)).not.toContain("Rate this answer");

    const sent = await rate(client.cookie, {
      subject: "question",
      questionId: String(question.id),
      rating: "5",
      redirectTo: `/questions/${question.id}`,
    });
    expect(sent.status).toBe(200);
    const after = await page(client.cookie);
    expect(after).toContain("You rated this 5 out of 5 stars");
    expect(after).not.toContain("Rate this answer");
    expect(await page(expert.cookie)).not.toContain("You rated this");
  });

  it("offers no Rate form for a general question (no expert) that an admin answered", async () => {
    const client = await newClient();
    const general = await insertQuestion(db(), {
      userId: client.userId,
      expertId: null,
      status: "answered",
      answer: "The team's answer.",
      answeredAt: new Date(),
    });
    const html = await (await get(`/questions/${general.id}`, client.cookie)).text();
    expect(html).toContain("The team&#x27;s answer.");
    expect(html).not.toContain("Rate this answer");
  });

  it("shows the expert what clients wrote, newest first, as text", async () => {
    const { expert, client, question } = await answeredQuestion("reviewed");
    const empty = await (await get("/expert/dashboard", expert.cookie)).text();
    expect(empty).toContain("No reviews yet. Clients can rate each answer and session.");

    const second = await insertQuestion(db(), {
      userId: client.userId,
      expertId: expert.expertId,
      status: "answered",
      answer: "Yes.",
      answeredAt: new Date(),
    });
    await rate(client.cookie, {
      subject: "question",
      questionId: String(question.id),
      rating: "5",
      comment: "<b>Spot on</b>, thank you.",
    });
    await rate(client.cookie, { subject: "question", questionId: String(second.id), rating: "3" });

    const html = await (await get("/expert/dashboard", expert.cookie)).text();
    const section = html.slice(html.indexOf('id="reviews-title"'));
    expect(section).toContain("3 out of 5 stars");
    expect(section).toContain("No comment");
    expect(section).toContain("5 out of 5 stars");
    expect(section).toContain("&lt;b&gt;Spot on&lt;/b&gt;, thank you.");
    expect(section).not.toContain("<b>Spot on</b>");
    // The newer review (the 3, with no comment) comes first.
    expect(section.indexOf("3 out of 5 stars")).toBeLessThan(section.indexOf("5 out of 5 stars"));
  });

  it("sends a browser without JavaScript back to the dashboard with the outcome, never to raw JSON", async () => {
    const { client, question } = await answeredQuestion("rated-nojs");
    const pagePost = (fields: Record<string, string>) =>
      postForm(
        "/reviews",
        { redirectTo: "/dashboard/questions?tab=answered", ...fields },
        { cookie: client.cookie, headers: { "Sec-Fetch-Mode": "navigate" } },
      );
    const toastOf = (response: Response) =>
      response.headers.getSetCookie().find((cookie) => cookie.startsWith("__toast=")) ?? "";

    const unknown = await pagePost({ subject: "question", questionId: "999999", rating: "5" });
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get("Location")).toBe("/dashboard/questions?tab=answered");
    expect(toastOf(unknown)).not.toBe("");

    const rated = await pagePost({ subject: "question", questionId: String(question.id), rating: "5" });
    expect(rated.status).toBe(302);
    expect(rated.headers.get("Location")).toBe("/dashboard/questions?tab=answered");
    expect(await (await get("/dashboard/questions", client.cookie)).text()).toContain(
      "You rated this 5 out of 5 stars",
    );

    const elsewhere = await pagePost({
      subject: "question",
      questionId: String(question.id),
      rating: "5",
      redirectTo: "https://evil.example/",
    });
    expect(elsewhere.headers.get("Location")).toBe("/dashboard/questions");
  });

  it("refuses a rating of 0 or 6 and a comment over 1,000 characters with 400, storing nothing", async () => {
    const expert = await newExpert("bounds");
    const client = await newClient();
    const question = await insertQuestion(db(), {
      userId: client.userId,
      expertId: expert.expertId,
      status: "answered",
      answeredAt: new Date(),
    });
    for (const fields of <Record<string, string>[]>[
      { rating: "0" },
      { rating: "6" },
      { rating: "4.5" },
      { rating: "" },
      { rating: "5", comment: "x".repeat(1001) },
    ]) {
      const response = await rate(client.cookie, {
        subject: "question",
        questionId: String(question.id),
        ...fields,
      });
      expect(response.status, JSON.stringify(fields)).toBe(400);
    }
    const zero = await rate(client.cookie, {
      subject: "question",
      questionId: String(question.id),
      rating: "0",
    });
    expect(JSON.stringify(await zero.json())).toContain("Please choose a rating from 1 to 5 stars.");
    expect(await db().select().from(reviews).where(eq(reviews.questionId, question.id))).toEqual([]);
  });

  it("refuses a review of someone else's question (404) and of one not answered yet (409)", async () => {
    const expert = await newExpert("foreign");
    const [owner, stranger] = await Promise.all([newClient(), newClient()]);
    const answered = await insertQuestion(db(), {
      userId: owner.userId,
      expertId: expert.expertId,
      status: "answered",
      answeredAt: new Date(),
    });
    const pending = await pendingQuestion(owner.userId, expert.expertId);
    const foreign = await rate(stranger.cookie, {
      subject: "question",
      questionId: String(answered.id),
      rating: "1",
    });
    expect(foreign.status).toBe(404);
    const early = await rate(owner.cookie, {
      subject: "question",
      questionId: String(pending.id),
      rating: "5",
    });
    expect(early.status).toBe(409);
    expect(await db().select().from(reviews).where(eq(reviews.expertId, expert.expertId))).toEqual([]);
    const anonymous = await postForm("/reviews", {
      subject: "question",
      questionId: String(answered.id),
      rating: "5",
    });
    expect(anonymous.status).toBe(302);
  });

  it("lets the client rate a completed session, not a confirmed one", async () => {
    const expert = await newExpert("session-rated");
    const client = await newClient();
    const done = await insertBooking(db(), {
      expertId: expert.expertId,
      userId: client.userId,
      status: "completed",
    });
    const upcoming = await insertBooking(db(), { expertId: expert.expertId, userId: client.userId });
    expect(
      (await rate(client.cookie, { subject: "booking", bookingId: String(upcoming.id), rating: "5" })).status,
    ).toBe(409);
    expect(
      (await rate(client.cookie, { subject: "booking", bookingId: String(done.id), rating: "5" })).status,
    ).toBe(200);
    expect(await (await get("/dashboard/bookings", client.cookie)).text()).toContain(
      "You rated this 5 out of 5 stars",
    );
  });
});

describe("the admin view of scheduled runs", () => {
  it("lists each run with what it changed, for admins only", async () => {
    const expert = await newExpert("runs");
    const client = await newClient();
    await pendingQuestion(client.userId, expert.expertId, { paidAt: new Date(Date.now() - 25 * HOUR) });
    await runAt(Date.now());
    const run = await lastRun();
    expect(JSON.parse(run.summary!)).toMatchObject({ questionsExpired: expect.any(Number) });
    const admin = await newAdmin();
    const page = await (await get("/admin/runs", admin.cookie)).text();
    expect(page).toContain("Scheduled runs");
    expect(page).toMatch(/Questions expired: \d+/);
    const refused = await get("/admin/runs", client.cookie);
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe("/forbidden");
  });
});

describe("a notice repeated long after its e-mail was pruned", () => {
  it("is not e-mailed again", async () => {
    const client = await newClient();
    const address = `${client.username}@example.com`;
    const notice = {
      userId: client.userId,
      kind: "expert_verified" as const,
      title: "Your expert profile is verified",
      body: "Clients now see your verified badge.",
      link: "/expert/dashboard",
      dedupeKey: `repeat-after-prune:${client.userId}`,
    };
    await notify(db(), notice);
    expect(await outboxTo(address)).toHaveLength(1);
    // 31 days on: the notification stays, its e-mail has been pruned, and the same notice comes again.
    const longAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
    await db()
      .update(notifications)
      .set({ createdAt: longAgo })
      .where(eq(notifications.userId, client.userId));
    await db().delete(emailOutbox).where(eq(emailOutbox.toEmail, address));
    await notify(db(), notice);
    expect(await outboxTo(address)).toEqual([]);
  });
});

describe("old records", () => {
  it("are removed by the scheduled run after 30 days; recent ones and e-mails still to send stay", async () => {
    const day = 24 * 60 * 60 * 1000;
    const now = Date.now();
    const old = new Date(now - 31 * day);
    const recent = new Date(now - 2 * day);
    const email = (status: "sent" | "pending", createdAt: Date, to: string) =>
      db().insert(emailOutbox).values({ toEmail: to, subject: "s", bodyText: "b", status, createdAt });
    await email("sent", old, "old-sent@example.com");
    await email("pending", old, "old-pending@example.com");
    await email("sent", recent, "recent-sent@example.com");
    await db()
      .insert(cronRuns)
      .values([
        { cron: "old", startedAt: old, finishedAt: old },
        { cron: "recent", startedAt: recent, finishedAt: recent },
      ]);
    await db()
      .insert(stripeEvents)
      .values([
        { id: "evt_old_prune", type: "payment_intent.succeeded", processedAt: old },
        { id: "evt_recent_prune", type: "payment_intent.succeeded", processedAt: recent },
      ]);
    await db()
      .insert(rateLimits)
      .values([
        { key: "contact:old-prune", count: 3, windowStartedAt: old },
        { key: "contact:recent-prune", count: 3, windowStartedAt: new Date(now) },
      ]);

    await runAt(now);
    expect((await lastRun()).summary).toContain('"recordsPruned"');
    expect(await outboxTo("old-sent@example.com")).toEqual([]);
    expect(await outboxTo("old-pending@example.com")).toHaveLength(1);
    expect(await outboxTo("recent-sent@example.com")).toHaveLength(1);
    const crons = (await db().select({ cron: cronRuns.cron }).from(cronRuns)).map((row) => row.cron);
    expect(crons).toContain("recent");
    expect(crons).not.toContain("old");
    const events = (await db().select({ id: stripeEvents.id }).from(stripeEvents)).map((row) => row.id);
    expect(events).toContain("evt_recent_prune");
    expect(events).not.toContain("evt_old_prune");
    const limits = (await db().select({ key: rateLimits.key }).from(rateLimits)).map((row) => row.key);
    expect(limits).toContain("contact:recent-prune");
    expect(limits).not.toContain("contact:old-prune");
  });
});

describe("a backlog", () => {
  it("drains over several runs, a bounded batch each time", async () => {
    const expert = await newExpert("backlog");
    const client = await newClient();
    const paidAt = new Date(Date.now() - 30 * HOUR);
    const ids: number[] = [];
    for (let n = 0; n < 25; n++) {
      ids.push((await pendingQuestion(client.userId, expert.expertId, { paidAt })).id);
    }
    const statuses = async () => {
      const rows = await db().select({ id: questions.id, status: questions.status }).from(questions);
      return rows.filter((row) => ids.includes(row.id)).map((row) => row.status);
    };
    const first = await runAt(Date.now());
    expect(first.summary.questionsExpired).toBe(20);
    expect((await statuses()).filter((status) => status === "expired")).toHaveLength(20);
    await runAt(Date.now() + 5 * 60 * 1000);
    expect((await statuses()).every((status) => status === "expired")).toBe(true);
  });
});
