import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Expert, questions } from "~/db/schema.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import { bookingTimes, insertBooking, insertQuestion } from "../factories";
import { db, get, insertAccount, postForm, signIn } from "./support/accounts";
import { addExpert, cardNames, categoriesBySlug } from "./support/discovery";
import { toastFrom } from "./support/questions";

let ada: Expert;
let cookie: string;
let clientId: number;

beforeAll(async () => {
  const categories = await categoriesBySlug();
  ({ expert: ada } = await addExpert(categories, {
    first: "Ada",
    last: "Quill",
    title: "Analytical Engine Consultant",
    categories: ["tech-and-ai"],
    questionRate: 2500,
    customUrl: "ada-quill",
  }));
  ({ userId: clientId } = await insertAccount("dash-client", "dash-pass-1"));
  const { userId: otherId } = await insertAccount("someone-else", "other-pass-1");
  cookie = await signIn("dash-client", "dash-pass-1");

  const mine = { userId: clientId, expertId: ada.id };
  await insertQuestion(db(), { ...mine, question: "Q-pending: how do I price?", status: "pending" });
  await insertQuestion(db(), {
    ...mine,
    question: "Q-working: which market first?",
    status: "in_progress",
    answer: "DRAFT-working: unsent words",
  });
  await insertQuestion(db(), {
    ...mine,
    question: "Q-answered: should I incorporate?",
    status: "answered",
    answer: "Yes, incorporate before you raise.",
    answeredAt: new Date(),
  });
  await insertQuestion(db(), {
    ...mine,
    question: "Q-audio: talk me through it",
    status: "answered",
    audioResponse: "audio/questions/1/answer.webm",
    audioContentType: "audio/webm",
    answeredAt: new Date(),
  });
  await insertQuestion(db(), {
    ...mine,
    question: "Q-declined: write my plan",
    status: "rejected",
    answer: "DRAFT-declined: half a plan",
  });
  await insertQuestion(db(), {
    ...mine,
    question: "Q-expired: nobody came",
    status: "expired",
    answer: "DRAFT-expired: too late",
  });
  await insertQuestion(db(), { ...mine, question: "Q-unpaid: still paying", status: "awaiting_payment" });
  await insertQuestion(db(), { userId: otherId, expertId: ada.id, question: "Q-theirs: not mine" });

  await insertBooking(db(), {
    ...mine,
    ...bookingTimes("2031-03-04", "10:00", "America/New_York"),
    status: "confirmed",
  });
  await insertBooking(db(), {
    ...mine,
    ...bookingTimes("2020-01-06", "14:00", "America/New_York"),
    status: "completed",
  });
  await insertBooking(db(), {
    ...mine,
    ...bookingTimes("2031-03-05", "11:00", "America/New_York"),
    status: "awaiting_payment",
  });
  await insertBooking(db(), {
    userId: otherId,
    expertId: ada.id,
    ...bookingTimes("2031-03-06", "09:00"),
    status: "confirmed",
  });
  await env.DB.prepare("INSERT INTO user_favorites (user_id, expert_id) VALUES (?, ?)")
    .bind(clientId, ada.id)
    .run();
});

describe("the client dashboard", () => {
  it("sends a signed-out visitor to /auth from each of its paths", async () => {
    for (const path of ["/dashboard", "/dashboard/questions", "/dashboard/bookings", "/dashboard/settings"]) {
      const response = await get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);
    }
  });

  it("shows My Dashboard with Home, Browse Experts and Log Out, privately", async () => {
    const response = await get("/dashboard", cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
    const html = await response.text();
    expect(html).toContain("<h1>My Dashboard</h1>");
    for (const label of ["Home", "Browse Experts", "Log Out"]) expect(html).toContain(`>${label}<`);
    expect(html).toContain("Favorite Experts");
    expect(cardNames(html)).toEqual(["Ada Quill"]);
  });

  it("lists my questions with their status texts, answers and recorded answers, never unpaid or others'", async () => {
    for (const path of ["/dashboard", "/dashboard/questions"]) {
      const html = await (await get(path, cookie)).text();
      expect(html).toContain("My Questions");
      for (const tab of ["All", "Pending", "Answered"])
        expect(html).toMatch(new RegExp(`role="tab"[^>]*>${tab}<`));
      expect(html).toContain("Awaiting expert answer");
      expect(html).toContain("Expert is working on your answer");
      expect(html).toContain("Yes, incorporate before you raise.");
      expect(html).toContain("Declined");
      expect(html).toContain("you were not charged");
      expect(html).toContain("No answer in time: you were not charged.");
      expect(html).toMatch(/<audio[^>]*controls=""[^>]*preload="none"[^>]*src="\/questions\/\d+\/audio"/);
      expect(html).not.toContain("Q-unpaid");
      expect(html).not.toContain("Q-theirs");
    }
  });

  it("names a declined or expired question the same on its own page as on the dashboard", async () => {
    for (const [text, label] of [
      ["Q-declined: write my plan", "Declined"],
      ["Q-expired: nobody came", "No answer in time"],
    ]) {
      const [{ id }] = await db()
        .select({ id: questions.id })
        .from(questions)
        .where(eq(questions.question, text));
      const html = await (await get(`/questions/${id}`, cookie)).text();
      expect(html, text).toMatch(new RegExp(`class="badge status-badge" data-status="[a-z]+">${label}<`));
      if (label === "Declined") {
        // An admin may have declined it: the page does not say the expert did.
        expect(html).toContain("This question was declined. You were not charged.");
        expect(html).not.toContain("expert declined");
      }
    }
  });

  it("never sends the asker an expert's unsent draft, not even after a decline or expiry", async () => {
    for (const path of [
      "/dashboard",
      "/dashboard/questions",
      "/dashboard.data",
      "/dashboard/questions.data",
    ]) {
      const body = await (await get(path, cookie)).text();
      expect(body, path).toContain("Q-working");
      expect(body, path).not.toContain("DRAFT-");
    }
  });

  it("lists my bookings with date, time, expert and status, upcoming first", async () => {
    for (const path of ["/dashboard", "/dashboard/bookings"]) {
      const html = await (await get(path, cookie)).text();
      expect(html).toContain("My Bookings");
      const upcoming = html.indexOf("Tue, Mar 4, 2031");
      const past = html.indexOf("Mon, Jan 6, 2020");
      expect(upcoming).toBeGreaterThan(0);
      expect(past).toBeGreaterThan(upcoming);
      expect(html).toContain("10:00 AM – 11:00 AM");
      expect(html).toContain("Confirmed");
      expect(html).toContain("Completed");
      expect(html).not.toContain("Mar 5, 2031");
      expect(html).not.toContain("Mar 6, 2031");
      expect(html).toContain('href="/ada-quill"');
    }
  });

  it("shows each person only their own dashboard", async () => {
    const otherCookie = await signIn("someone-else", "other-pass-1");
    const html = await (await get("/dashboard", otherCookie)).text();
    expect(html).toContain("Q-theirs: not mine");
    expect(html).not.toContain("Q-pending");
    expect(cardNames(html)).toEqual([]);
    expect(html).toContain("You haven&#x27;t added any favorite experts yet");
  });
});

describe("removing a favourite from the dashboard", () => {
  const favoritesOf = async (userId: number) =>
    (
      await env.DB.prepare("SELECT expert_id FROM user_favorites WHERE user_id = ? ORDER BY expert_id")
        .bind(userId)
        .all<{ expert_id: number }>()
    ).results.map((row) => row.expert_id);

  it("takes only the signed-in client's own favourite off, with or without JavaScript", async () => {
    const categories = await categoriesBySlug();
    const { expert: bo } = await addExpert(categories, {
      first: "Bo",
      last: "Fav",
      title: "Favourite Consultant",
      categories: ["tech-and-ai"],
      questionRate: 3000,
    });
    const { userId: ownerId } = await insertAccount("fav-owner", "fav-pass-11");
    const { userId: otherId } = await insertAccount("fav-other", "fav-pass-22");
    for (const userId of [ownerId, otherId]) {
      for (const expertId of [ada.id, bo.id]) {
        await env.DB.prepare("INSERT INTO user_favorites (user_id, expert_id) VALUES (?, ?)")
          .bind(userId, expertId)
          .run();
      }
    }
    const owner = await signIn("fav-owner", "fav-pass-11");
    const fields = (expertId: number | string) => ({ intent: "unfavorite", expertId: String(expertId) });

    // A fetcher (the page's script) gets data; the list reloads from the loader.
    const fetched = await postForm("/dashboard?index", fields(ada.id), { cookie: owner });
    expect(fetched.status).toBe(200);
    expect(await favoritesOf(ownerId)).toEqual([bo.id]);
    expect(cardNames(await (await get("/dashboard", owner)).text())).toEqual(["Bo Fav"]);

    // A page without JavaScript posts the form itself, and comes back with a toast.
    const posted = await postForm("/dashboard?index", fields(bo.id), {
      cookie: owner,
      headers: { "Sec-Fetch-Mode": "navigate" },
    });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toBe("/dashboard");
    expect(toastFrom(posted)).toMatchObject({ title: "Removed from favorites" });
    expect(await favoritesOf(ownerId)).toEqual([]);

    // The other client's favourites of the same experts are untouched.
    expect(await favoritesOf(otherId)).toEqual([ada.id, bo.id].sort((a, b) => a - b));

    // A tampered id is refused and changes nothing; signed out, nothing is removed.
    for (const bad of ["abc", "-1", "1e3", ""]) {
      const other = await signIn("fav-other", "fav-pass-22");
      const refused = await postForm("/dashboard?index", fields(bad), { cookie: other });
      expect(refused.status, bad).toBe(400);
    }
    const signedOut = await postForm("/dashboard?index", fields(ada.id));
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/auth/);
    expect(await favoritesOf(otherId)).toEqual([ada.id, bo.id].sort((a, b) => a - b));
  });
});
