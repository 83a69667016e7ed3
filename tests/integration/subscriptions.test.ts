/**
 * Subscriptions in test mode (no Stripe key, as `wrangler dev` runs): /subscribe creates the account
 * and activates 30 days without Stripe; the dashboard cancels and resumes locally; the scheduled
 * lapse of ended subscriptions. (With Stripe: tests/integration/payments/subscriptions.test.ts.)
 */
import { env } from "cloudflare:test";
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/client.server";
import { users } from "~/db/schema.server";
import { formatUtcDate } from "~/lib/utc-dates";
import { cancelSubscription, lapseEndedSubscriptions } from "~/models/subscriptions.server";
import { buildUser } from "../factories";
import { db, get, insertAccount, postForm, sessionCookieFrom } from "./support/accounts";
import {
  getLedger,
  makeSubscriber,
  newClient,
  newExpert,
  notificationsOf,
  toastFrom,
} from "./support/questions";
import { outboxTo } from "./support/scheduled";
import {
  dashboardHtml,
  newVisitor,
  requestSubscription,
  subscriptionLines,
  userByUsername,
  userCount,
  userRow,
} from "./support/subscriptions";

const DAY_MS = 24 * 60 * 60 * 1000;
const QUESTION = "Which metrics should a new subscription box track in its first quarter?";

describe("/subscribe in test mode", () => {
  it("shows SPEC.md's texts, the account fields and the test-mode notice", async () => {
    const response = await get("/subscribe");
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const text of [
      "<title>Monthly Subscription",
      "Monthly Subscription",
      "Get unlimited daily questions answered by our experts for $20/month",
      "Subscribe Now",
      "Test Mode Active",
      ">Email</label>",
      ">Username</label>",
      ">Password</label>",
    ]) {
      expect(html).toContain(text);
    }
  });

  it("creates the account, signs it in and activates a 30-day subscription without Stripe", async () => {
    const visitor = newVisitor("test-mode");
    const started = Date.now();
    const response = await postForm("/subscribe", visitor);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/thank-you?subscription=true");
    expect(toastFrom(response)).toMatchObject({ title: "Success! (Test Mode)" });
    const cookie = sessionCookieFrom(response);
    expect(cookie).toBeTruthy();

    const user = (await userByUsername(visitor.username))!;
    expect(user).toMatchObject({
      email: visitor.email,
      subscriptionStatus: "active",
      subscriptionCancelAtPeriodEnd: false,
      stripeCustomerId: null,
      stripeSubscriptionId: null,
    });
    const days = (user.subscriptionEndDate!.getTime() - started) / DAY_MS;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThan(30.01);
    // Nothing was paid, so nothing is in the ledger.
    expect(await subscriptionLines(user.id)).toEqual([]);
    // The new account is signed in and its dashboard shows the subscription.
    const html = await dashboardHtml(cookie!);
    expect(html).toContain("Renews on");
    expect(html).toContain("1 question left today");
    // And in writing: in the app and by e-mail.
    const endDate = formatUtcDate(user.subscriptionEndDate!);
    expect(await notificationsOf(user.id)).toEqual([
      expect.objectContaining({
        kind: "subscription",
        title: "Your subscription is active",
        body: expect.stringContaining(`runs until ${endDate}`),
        link: "/dashboard",
      }),
    ]);
    expect(await outboxTo(visitor.email)).toEqual([
      expect.objectContaining({ subject: "Your subscription is active" }),
    ]);
  });

  it("credits the expert the standard fee for an answered question, though nothing was paid", async () => {
    const visitor = newVisitor("test-credit");
    const subscribed = await postForm("/subscribe", visitor);
    const cookie = sessionCookieFrom(subscribed)!;
    const expert = await newExpert("test-credit", 1800);
    const asked = await postForm(`/ask/${expert.expertId}`, { question: QUESTION }, { cookie });
    const questionId = Number(
      new URL(asked.headers.get("Location")!, "https://x").searchParams.get("question"),
    );
    const answered = await postForm(
      `/questions/${questionId}/answer`,
      { answer: "Track churn, activation and the cost of each box.", status: "answered" },
      { cookie: expert.cookie },
    );
    expect(answered.status).toBe(200);
    expect(await getLedger(questionId)).toMatchObject({
      kind: "subscription_question",
      status: "captured",
      amount: 500,
    });
  });

  it("refuses bad account fields with SPEC.md's messages and a taken username clearly", async () => {
    const before = await userCount();
    const bad = await postForm("/subscribe", { email: "bad@", username: "ab", password: "12345" });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    for (const message of [
      "Please enter a valid email address",
      "Username must be at least 3 characters",
      "Password must be at least 6 characters",
    ]) {
      expect(html).toContain(message);
    }
    const taken = newVisitor("taken");
    await insertAccount(taken.username, "someone-else-1");
    const again = await postForm("/subscribe", { ...newVisitor(), username: taken.username });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("That username is already taken");
    expect(sessionCookieFrom(again)).toBeNull();
    expect(await userCount()).toBe(before + 1);
  });

  it("signs a sign-up sent again after its answer was lost in to the account it made", async () => {
    const visitor = newVisitor("lost-answer");
    expect((await postForm("/subscribe", visitor)).status).toBe(302);
    const before = await userCount();
    // The same form again from a browser that never got the cookie: already subscribed, signed in.
    const again = await postForm("/subscribe", visitor);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("You already have an active subscription.");
    const cookie = sessionCookieFrom(again);
    expect(cookie).toBeTruthy();
    expect((await get("/dashboard", cookie!)).status).toBe(200);
    expect(await userCount()).toBe(before);
  });

  it("subscribes a signed-in client without account fields, and refuses a second subscription", async () => {
    const client = await newClient("signed-in");
    const page = await (await get("/subscribe", client.cookie)).text();
    expect(page).toContain("Signed in as");
    expect(page).not.toContain(">Username</label>");

    const response = await postForm("/subscribe", {}, { cookie: client.cookie });
    expect(response.headers.get("Location")).toBe("/thank-you?subscription=true");
    expect((await userRow(client.userId)).subscriptionStatus).toBe("active");
    const endDate = (await userRow(client.userId)).subscriptionEndDate;

    const twice = await postForm("/subscribe", {}, { cookie: client.cookie });
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain("You already have an active subscription.");
    const api = await requestSubscription({ amount: 20 }, client.cookie);
    expect(api.response.status).toBe(409);
    expect((await userRow(client.userId)).subscriptionEndDate).toEqual(endDate);
  });

  it("says the session ended when a signed-in subscription arrives without one, creating no account", async () => {
    const client = await newClient("ended");
    const page = await (await get("/subscribe", client.cookie)).text();
    expect(page).toMatch(/<input type="hidden" name="asSignedIn" value="1"/);
    const message =
      "Your session has ended, so nothing was charged. Please sign in again to add the subscription to your account.";
    const users0 = await userCount();
    // The same form and call, after a logout in another tab: no cookie.
    const form = await postForm("/subscribe", { asSignedIn: "1" });
    expect(form.status).toBe(401);
    expect(await form.text()).toContain(message);
    const api = await requestSubscription({ asSignedIn: true, amount: 20 });
    expect(api.response.status).toBe(401);
    expect(api.body).toMatchObject({ error: message });
    expect(sessionCookieFrom(api.response)).toBeNull();
    expect(await userCount()).toBe(users0);
    expect((await userRow(client.userId)).subscriptionStatus).toBeNull();
  });

  it("answers the subscription API with an active subscription in test mode", async () => {
    const { response, body, cookie } = await requestSubscription(newVisitor("api"));
    expect(response.status).toBe(201);
    expect(body).toEqual({ status: "active", signedIn: true, redirectTo: "/thank-you?subscription=true" });
    expect(cookie).toMatch(/^__session=/);
  });

  it("activates one subscription when the same client subscribes twice at once", async () => {
    const client = await newClient("double");
    const responses = await Promise.all(
      [1, 2].map(() => postForm("/subscribe", {}, { cookie: client.cookie })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([302, 409]);
    expect((await notificationsOf(client.userId)).map((notice) => notice.title)).toEqual([
      "Your subscription is active",
    ]);
  });
});

describe("the dashboard's subscription panel (test mode)", () => {
  it("offers a subscription to someone who never subscribed", async () => {
    const client = await newClient();
    const html = await dashboardHtml(client.cookie);
    expect(html).toContain("Not subscribed");
    expect(html).toContain('href="/subscribe"');
  });

  it("shows plan, status, renewal date and today's questions; cancels and resumes locally", async () => {
    const client = await newClient("panel");
    await postForm("/subscribe", {}, { cookie: client.cookie });
    let html = await dashboardHtml(client.cookie);
    expect(html).toContain("$20.00 / month, one question a day");
    expect(html).toContain("Active");
    expect(html).toContain("Renews on");
    expect(html).toContain("1 question left today");
    // Without JavaScript (no dialog) the page itself holds a form that cancels.
    expect(html.split("__remixContext")[0]).toMatch(
      /<details class="confirm-disclosure"><summary[^>]*>Cancel subscription<\/summary>.*?<form method="post" action="\/dashboard\?index"><input type="hidden" name="intent" value="cancel-subscription"\/><button type="submit"[^>]*>Cancel subscription<\/button><\/form>/,
    );

    const cancel = await postForm(
      "/dashboard?index",
      { intent: "cancel-subscription" },
      { cookie: client.cookie },
    );
    expect(toastFrom(cancel)).toMatchObject({ title: "Subscription cancelled" });
    expect((await userRow(client.userId)).subscriptionCancelAtPeriodEnd).toBe(true);
    html = await dashboardHtml(client.cookie);
    expect(html).toContain("Cancels on");
    expect(html).toContain("Ends on");
    expect(html).toContain("Resume");

    const resume = await postForm(
      "/dashboard?index",
      { intent: "resume-subscription" },
      { cookie: client.cookie },
    );
    expect(toastFrom(resume)).toMatchObject({ title: "Subscription resumed" });
    expect(await dashboardHtml(client.cookie)).toContain("Renews on");

    // Each change is confirmed in writing, with the date it takes effect.
    const endDate = formatUtcDate((await userRow(client.userId)).subscriptionEndDate!);
    const notices = await notificationsOf(client.userId);
    expect(notices.map((notice) => notice.title)).toEqual([
      "Your subscription is active",
      "Your subscription will end",
      "Your subscription will renew",
    ]);
    expect(notices[1].body).toContain(`You keep your daily question until ${endDate}`);
    expect(notices[2].body).toBe(
      `You resumed your monthly subscription. It renews on ${endDate} for $20.00.`,
    );
  });

  it("confirms a cancellation once when it is sent twice at once", async () => {
    const client = await newClient("cancel-race");
    await postForm("/subscribe", {}, { cookie: client.cookie });
    // Two requests a moment apart that both read the subscription before either changed it.
    const start = Date.now();
    const results = await Promise.all(
      [0, 1].map((offset) =>
        cancelSubscription(
          { db: createDatabase(env.DB), stripe: null, priceId: null, now: new Date(start + offset) },
          client.userId,
        ),
      ),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect((await userRow(client.userId)).subscriptionCancelAtPeriodEnd).toBe(true);
    const titles = (await notificationsOf(client.userId)).map((notice) => notice.title);
    expect(titles.filter((title) => title === "Your subscription will end")).toHaveLength(1);
  });

  it("counts today's question once it is used", async () => {
    const client = await newClient("used");
    await makeSubscriber(client.userId);
    const expert = await newExpert();
    await postForm(`/ask/${expert.expertId}`, { question: QUESTION }, { cookie: client.cookie });
    const html = await dashboardHtml(client.cookie);
    expect(html).toContain("0 questions left today");
    expect(html).toContain("Your next question is available tomorrow");
  });
});

describe("lapseEndedSubscriptions (the scheduled task)", () => {
  it("lapses and tells 120 ended subscriptions in one run, past D1's 100 bound parameters", async () => {
    const ended = new Date(Date.now() - DAY_MS);
    const rows = Array.from({ length: 120 }, () =>
      buildUser({ subscriptionStatus: "active", subscriptionEndDate: ended }),
    );
    // D1 takes at most 100 bound parameters a statement: 8 rows of a dozen columns at a time.
    const inserted: number[] = [];
    for (let start = 0; start < rows.length; start += 8) {
      const made = await db()
        .insert(users)
        .values(rows.slice(start, start + 8))
        .returning({ id: users.id });
      inserted.push(...made.map((row) => row.id));
    }
    const lapsed = await lapseEndedSubscriptions(db(), new Date());
    expect(lapsed).toEqual(expect.arrayContaining(inserted));
    const still = await db()
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, inserted.slice(0, 90)), eq(users.subscriptionStatus, "active")));
    expect(still).toEqual([]);
    for (const userId of [inserted[0], inserted[119]]) {
      expect((await notificationsOf(userId)).map((notice) => notice.title)).toEqual([
        "Your subscription has ended",
      ]);
    }
  });

  it("lapses active and past-due subscriptions past their end, once, and leaves the rest", async () => {
    const now = new Date();
    const ended = await newClient("ended");
    const pastDue = await newClient("past-due");
    const current = await newClient("current");
    const cancelled = await newClient("cancelled");
    await makeSubscriber(ended.userId, { endsInDays: -1 });
    await makeSubscriber(current.userId, { endsInDays: 10 });
    await makeSubscriber(pastDue.userId, { endsInDays: -2 });
    await db().update(users).set({ subscriptionStatus: "past_due" }).where(eq(users.id, pastDue.userId));
    await makeSubscriber(cancelled.userId, { endsInDays: -3 });
    await db().update(users).set({ subscriptionStatus: "canceled" }).where(eq(users.id, cancelled.userId));

    const lapsed = await lapseEndedSubscriptions(db(), now);
    expect(lapsed.sort()).toEqual([ended.userId, pastDue.userId].sort());
    expect((await userRow(ended.userId)).subscriptionStatus).toBe("lapsed");
    expect((await userRow(pastDue.userId)).subscriptionStatus).toBe("lapsed");
    expect((await userRow(current.userId)).subscriptionStatus).toBe("active");
    expect((await userRow(cancelled.userId)).subscriptionStatus).toBe("canceled");
    expect(await lapseEndedSubscriptions(db(), now)).toEqual([]);
    // Each is told once, in the app and by e-mail; the others hear nothing.
    const ends = async (userId: number) =>
      (await notificationsOf(userId)).filter((notice) => notice.title === "Your subscription has ended");
    for (const person of [ended, pastDue]) {
      expect(await ends(person.userId)).toEqual([
        expect.objectContaining({
          link: "/subscribe",
          body: expect.stringContaining("Questions are now paid one at a time"),
        }),
      ]);
    }
    expect(await ends(current.userId)).toEqual([]);
    expect(await ends(cancelled.userId)).toEqual([]);

    // A lapsed subscriber asks and pays like anyone, and may subscribe again.
    const expert = await newExpert();
    const page = await (await get(`/ask/${expert.expertId}`, ended.cookie)).text();
    expect(page).toContain("Test Mode: Submit questions without payment");
    expect(page).toMatch(/<a [^>]*href="\/subscribe"[^>]*>Subscribe for \$20\/month<\/a>/);
    expect(await dashboardHtml(ended.cookie)).toContain("Subscribe again");
    const again = await postForm("/subscribe", {}, { cookie: ended.cookie });
    expect(again.headers.get("Location")).toBe("/thank-you?subscription=true");
  });
});
