import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Category, expertCategories, experts, users } from "~/db/schema.server";
import { canonicalTimeZone } from "~/lib/slots";
import { cacheKeys } from "~/services/cache.server";
import { insertExpert, insertQuestion, insertReview } from "../../factories";
import { db, insertAccount, signIn } from "../support/accounts";
import { callApi, errorOf, json } from "../support/api";
import { categoriesBySlug } from "../support/discovery";
import { newAdmin } from "../support/questions";

let categories: Map<string, Category>;
let counter = 0;

beforeAll(async () => {
  categories = await categoriesBySlug();
});

const category = (slug: string) => {
  const found = categories.get(slug);
  if (!found) throw new Error(`no category ${slug}`);
  return found;
};

/** A complete expert profile that can sign in. */
async function signedInExpert(overrides: { customUrl?: string; isTopExpert?: boolean } = {}) {
  const username = `apiexpert${++counter}`;
  const tech = category("tech-and-ai");
  const { user, expert } = await insertExpert(db(), {
    user: { username, password: "expert-pass-1", name: `Api Expert ${counter}` },
    expert: {
      title: "Systems Architect",
      bio: "Designs systems that stay up when traffic spikes.",
      expertise: tech.name,
      questionRate: 1500,
      sessionPrice: 9000,
      customUrl: overrides.customUrl ?? null,
      isTopExpert: overrides.isTopExpert ?? false,
    },
    categoryIds: [tech.id],
  });
  return { user, expert, cookie: await signIn(username, "expert-pass-1") };
}

async function signedInClient() {
  const username = `apiclient${++counter}`;
  const { userId } = await insertAccount(username, "client-pass-1");
  return { userId, cookie: await signIn(username, "client-pass-1") };
}

describe("public expert reads", () => {
  it("lists featured experts, browses, and reads a profile by id and by custom URL", async () => {
    const { expert } = await signedInExpert({ customUrl: "api-reads", isTopExpert: true });

    const featured = await json(await callApi("GET", "/api/featured-experts"));
    expect(featured.map((card: { id: number }) => card.id)).toContain(expert.id);

    const list = await callApi("GET", "/api/experts?category=tech-and-ai&sort=price_low");
    expect(list.status).toBe(200);
    expect(Number(list.headers.get("X-Total-Count"))).toBeGreaterThan(0);
    expect((await json(list)).map((card: { id: number }) => card.id)).toContain(expert.id);

    const byId = await callApi("GET", `/api/experts/${expert.id}`);
    expect(byId.status).toBe(200);
    expect(await json(byId)).toMatchObject({
      id: expert.id,
      title: "Systems Architect",
      customUrl: "api-reads",
      questionRate: 1500,
      categories: [{ slug: "tech-and-ai" }],
    });
    const byUrl = await callApi("GET", "/api/experts/custom/API-READS");
    expect((await json(byUrl)).id).toBe(expert.id);

    const cats = await json(await callApi("GET", `/api/experts/${expert.id}/categories`));
    expect(cats).toEqual([
      { id: category("tech-and-ai").id, name: category("tech-and-ai").name, slug: "tech-and-ai" },
    ]);
  });

  it("answers 404 for an unknown expert, id or custom URL", async () => {
    for (const path of [
      "/api/experts/999999",
      "/api/experts/abc",
      "/api/experts/custom/nobody-here",
      "/api/experts/999999/categories",
      "/api/experts/999999/reviews",
      "/api/experts/999999/questions",
    ]) {
      const response = await callApi("GET", path);
      expect(response.status, path).toBe(404);
      expect(await errorOf(response), path).toBe("Expert not found");
    }
  });

  it("lists an expert's reviews, newest first, with a rating each", async () => {
    const { expert } = await signedInExpert();
    const { userId } = await insertAccount(`reviewer${++counter}`, "reviewer-pass");
    await insertReview(db(), {
      expertId: expert.id,
      userId,
      rating: 4,
      comment: "Helpful",
      createdAt: new Date(1_000),
    });
    await insertReview(db(), { expertId: expert.id, rating: 5, createdAt: new Date(2_000) });
    const response = await callApi("GET", `/api/experts/${expert.id}/reviews`);
    const raw = await response.clone().text();
    expect(await json(response)).toEqual([
      {
        id: expect.any(Number),
        rating: 5,
        comment: expect.any(String),
        subject: "question",
        createdAt: 2_000,
      },
      { id: expect.any(Number), rating: 4, comment: "Helpful", subject: "question", createdAt: 1_000 },
    ]);
    // Who wrote a review is never public: a published question is shown without its asker's name.
    expect(raw).not.toContain(`reviewer${counter}`);
  });
});

describe("GET /api/experts/{id}/questions and /questions/all", () => {
  it("shows visitors only the answers allowed on the profile, and the expert everything by status", async () => {
    const { expert, cookie } = await signedInExpert();
    const client = await signedInClient();
    const base = { expertId: expert.id, userId: client.userId };
    const shown = await insertQuestion(db(), {
      ...base,
      status: "answered",
      answer: "Use a queue in front of the database.",
      answeredAt: new Date(),
      showOnProfile: true,
    });
    const hidden = await insertQuestion(db(), {
      ...base,
      status: "answered",
      answer: "A private answer for the asker only.",
      answeredAt: new Date(),
    });
    const open = await insertQuestion(db(), base);

    const publicList = await json(await callApi("GET", `/api/experts/${expert.id}/questions`));
    expect(publicList.map((q: { id: number }) => q.id)).toEqual([shown.id]);

    const answered = await json(
      await callApi("GET", `/api/experts/${expert.id}/questions?status=answered`, { cookie }),
    );
    expect(answered.map((q: { id: number }) => q.id).sort()).toEqual([shown.id, hidden.id].sort());
    const pending = await json(
      await callApi("GET", `/api/experts/${expert.id}/questions?status=pending`, { cookie }),
    );
    expect(pending.map((q: { id: number }) => q.id)).toEqual([open.id]);
    const all = await json(await callApi("GET", `/api/experts/${expert.id}/questions/all`, { cookie }));
    expect(all).toHaveLength(3);
  });

  it("keeps pending and all questions from other people (401 signed out, 403 another user) and refuses a bad status", async () => {
    const { expert } = await signedInExpert();
    const other = await signedInClient();
    expect((await callApi("GET", `/api/experts/${expert.id}/questions?status=pending`)).status).toBe(401);
    expect(
      (await callApi("GET", `/api/experts/${expert.id}/questions?status=pending`, { cookie: other.cookie }))
        .status,
    ).toBe(403);
    expect((await callApi("GET", `/api/experts/${expert.id}/questions/all`)).status).toBe(401);
    expect(
      (await callApi("GET", `/api/experts/${expert.id}/questions/all`, { cookie: other.cookie })).status,
    ).toBe(403);
    const bad = await callApi("GET", `/api/experts/${expert.id}/questions?status=everything`);
    expect(bad.status).toBe(400);
  });

  it("lets an admin read an expert's questions and sessions, and answers 404 for an expert who is not there", async () => {
    const { expert } = await signedInExpert();
    const client = await signedInClient();
    await insertQuestion(db(), { expertId: expert.id, userId: client.userId });
    const admin = await newAdmin();
    const all = await callApi("GET", `/api/experts/${expert.id}/questions/all`, { cookie: admin.cookie });
    expect(all.status).toBe(200);
    expect(await json(all)).toHaveLength(1);
    expect(
      (await callApi("GET", `/api/experts/${expert.id}/bookings`, { cookie: admin.cookie })).status,
    ).toBe(200);

    await db().update(experts).set({ deletedAt: new Date() }).where(eq(experts.id, expert.id));
    for (const id of [expert.id, 999999]) {
      for (const path of [`/api/experts/${id}/questions/all`, `/api/experts/${id}/bookings`]) {
        const response = await callApi("GET", path, { cookie: admin.cookie });
        expect(response.status, path).toBe(404);
        expect(await errorOf(response), path).toBe("Expert not found");
      }
    }
  });
});

describe("PATCH /api/experts/{id}", () => {
  it("edits the owner's profile with the settings rules, prices in cents, and refreshes the cached profile", async () => {
    const { expert, cookie } = await signedInExpert();
    await env.CACHE.put(cacheKeys.expertProfile(expert.id), JSON.stringify({ value: "stale" }));
    const response = await callApi("PATCH", `/api/experts/${expert.id}`, {
      cookie,
      body: {
        title: "Principal Architect",
        expertise: `${category("tech-and-ai").name}, ${category("sales").name}`,
        customUrl: "principal-architect",
        questionRate: 2500,
        sessionPrice: 12000,
      },
    });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({
      title: "Principal Architect",
      questionRate: 2500,
      sessionPrice: 12000,
    });
    const [row] = await db().select().from(experts).where(eq(experts.id, expert.id));
    expect(row).toMatchObject({
      title: "Principal Architect",
      customUrl: "principal-architect",
      questionRate: 2500,
      sessionPrice: 12000,
      bio: "Designs systems that stay up when traffic spikes.",
    });
    const rows = await db().select().from(expertCategories).where(eq(expertCategories.expertId, expert.id));
    expect(rows).toHaveLength(2);
    expect(await env.CACHE.get(cacheKeys.expertProfile(expert.id))).toBeNull();
    expect((await json(await callApi("GET", "/api/experts/custom/principal-architect"))).id).toBe(expert.id);
  });

  it("answers the settings form's messages and changes nothing on bad input", async () => {
    const { expert, cookie } = await signedInExpert();
    const cheap = await callApi("PATCH", `/api/experts/${expert.id}`, {
      cookie,
      body: { title: "Renamed", questionRate: 100 },
    });
    expect(cheap.status).toBe(400);
    expect(await errorOf(cheap)).toBe("Minimum question rate is $5.00");
    const badUrl = await callApi("PATCH", `/api/experts/${expert.id}`, {
      cookie,
      body: { customUrl: "Not_Valid" },
    });
    expect(badUrl.status).toBe(400);
    expect(await errorOf(badUrl)).toBe("URL can only contain lowercase letters, numbers, and hyphens");
    const unknown = await callApi("PATCH", `/api/experts/${expert.id}`, {
      cookie,
      body: { isVerified: true },
    });
    expect(unknown.status).toBe(400);
    // A price in cents is a JSON number: a string or null says so, not that the price is too low.
    for (const [field, value] of [
      ["questionRate", "600"],
      ["sessionPrice", "12000"],
      ["questionRate", null],
    ] as const) {
      const notANumber = await callApi("PATCH", `/api/experts/${expert.id}`, {
        cookie,
        body: { title: "Renamed", [field]: value },
      });
      expect(notANumber.status, `${field}: ${value}`).toBe(400);
      expect(await errorOf(notANumber), `${field}: ${value}`).toBe(`${field} must be a number`);
    }
    // Prices are whole cents: a fraction is refused, never rounded into a price nobody sent.
    for (const [field, value] of [
      ["questionRate", 1500.4],
      ["sessionPrice", 12000.5],
    ] as const) {
      const fraction = await callApi("PATCH", `/api/experts/${expert.id}`, {
        cookie,
        body: { title: "Renamed", [field]: value },
      });
      expect(fraction.status, `${field}: ${value}`).toBe(400);
      expect(await errorOf(fraction), `${field}: ${value}`).toBe(`${field} must be a whole number`);
    }
    // A text field sent as a number says so, not the screens' "at least 10 characters".
    const numericBio = await callApi("PATCH", `/api/experts/${expert.id}`, {
      cookie,
      body: { bio: 12345678901 },
    });
    expect(numericBio.status).toBe(400);
    expect(await json(numericBio)).toMatchObject({
      error: "bio must be text",
      fieldErrors: { bio: ["bio must be text"] },
    });
    const [row] = await db().select().from(experts).where(eq(experts.id, expert.id));
    expect(row).toMatchObject({
      title: "Systems Architect",
      questionRate: 1500,
      sessionPrice: 9000,
      isVerified: false,
    });
  });

  it("clears an optional field sent as null or empty, and stores a lone surrogate as U+FFFD", async () => {
    const { expert, cookie } = await signedInExpert();
    const set = await callApi("PATCH", `/api/experts/${expert.id}`, {
      cookie,
      body: { socialWebsite: "https://example.com/me", location: "Lisbon" },
    });
    expect(set.status).toBe(200);
    const cleared = await callApi("PATCH", `/api/experts/${expert.id}`, {
      cookie,
      body: { socialWebsite: null, location: "" },
    });
    expect(cleared.status).toBe(200);
    // JSON can carry half of a surrogate pair as an escape, which is no character at all.
    const broken = await callApi("PATCH", `/api/experts/${expert.id}`, {
      cookie,
      body: '{"bio": "Designs systems that stay up when traffic spikes \\ud800 and come back."}',
    });
    expect(broken.status).toBe(200);
    const [row] = await db().select().from(experts).where(eq(experts.id, expert.id));
    expect(row).toMatchObject({
      socialWebsite: null,
      location: null,
      bio: "Designs systems that stay up when traffic spikes \ufffd and come back.",
    });
  });

  it("refuses a title made only of invisible characters with the required message", async () => {
    const { expert, cookie } = await signedInExpert();
    const response = await callApi("PATCH", `/api/experts/${expert.id}`, {
      cookie,
      body: { title: "\u200b\u200b\u200b\u200d" },
    });
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ fieldErrors: { title: [expect.any(String)] } });
    const [row] = await db().select().from(experts).where(eq(experts.id, expert.id));
    expect(row.title).toBe("Systems Architect");
  });

  it("answers 409 for a custom URL another expert has", async () => {
    await signedInExpert({ customUrl: "taken-url" });
    const { expert, cookie } = await signedInExpert();
    const response = await callApi("PATCH", `/api/experts/${expert.id}`, {
      cookie,
      body: { customUrl: "taken-url" },
    });
    expect(response.status).toBe(409);
    expect(await json(response)).toMatchObject({ fieldErrors: { customUrl: [expect.any(String)] } });
  });

  it("refuses a signed-out caller (401), another expert (403) and a cross-site call, changing nothing", async () => {
    const { expert, cookie } = await signedInExpert();
    const other = await signedInExpert();
    expect(
      (await callApi("PATCH", `/api/experts/${expert.id}`, { body: { title: "Hijacked" } })).status,
    ).toBe(401);
    const forbidden = await callApi("PATCH", `/api/experts/${expert.id}`, {
      cookie: other.cookie,
      body: { title: "Hijacked" },
    });
    expect(forbidden.status).toBe(403);
    const crossSite = await callApi("PATCH", `/api/experts/${expert.id}`, {
      cookie,
      body: { title: "Hijacked" },
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    const [row] = await db().select().from(experts).where(eq(experts.id, expert.id));
    expect(row.title).toBe("Systems Architect");
  });
});

describe("POST /api/experts", () => {
  const creation = () => ({
    bio: "Twenty years of shipping payment systems for marketplaces of every size.",
    expertise: category("sales").name,
    title: "Payments Lead",
    occupation: "Fintech Co",
    customUrl: `payments-lead-${++counter}`,
    categoryId: category("sales").id,
    sessionPrice: 5000,
    questionRate: 1000,
    isTopExpert: true,
    termsAgreed: true,
  });

  it("makes the signed-in user an expert with the sign-up rules", async () => {
    const client = await signedInClient();
    const body = { ...creation(), userId: client.userId };
    const response = await callApi("POST", "/api/experts", { cookie: client.cookie, body });
    expect(response.status).toBe(201);
    const created = await json(response);
    expect(created).toMatchObject({
      title: "Payments Lead",
      questionRate: 1000,
      sessionPrice: 5000,
      isTopExpert: false,
    });
    const [user] = await db().select().from(users).where(eq(users.id, client.userId));
    expect(user.role).toBe("expert");
    const status = await json(await callApi("GET", "/api/auth/status", { cookie: client.cookie }));
    expect(status.user.expertProfile.id).toBe(created.id);
    // Once an expert, always the same profile.
    const again = await callApi("POST", "/api/experts", { cookie: client.cookie, body: creation() });
    expect(again.status).toBe(409);
  });

  it("stores the schedule's time zone as Availability takes it, UTC when left out", async () => {
    const inKolkata = await signedInClient();
    const created = await callApi("POST", "/api/experts", {
      cookie: inKolkata.cookie,
      body: { ...creation(), timeZone: "Asia/Kolkata" },
    });
    expect(created.status).toBe(201);
    const [kolkata] = await db().select().from(experts).where(eq(experts.userId, inKolkata.userId));
    // Its canonical name, as Availability stores it (this runtime's ICU may say Asia/Calcutta).
    expect(kolkata.timeZone).toBe(canonicalTimeZone("Asia/Kolkata"));
    const availability = await json(await callApi("GET", `/api/experts/${kolkata.id}/availability`));
    expect(availability.timeZone).toBe(kolkata.timeZone);

    const unsaid = await signedInClient();
    expect((await callApi("POST", "/api/experts", { cookie: unsaid.cookie, body: creation() })).status).toBe(
      201,
    );
    const [utc] = await db().select().from(experts).where(eq(experts.userId, unsaid.userId));
    expect(utc.timeZone).toBe("UTC");
  });

  it("refuses a time zone Availability would refuse (400) and creates nothing", async () => {
    const client = await signedInClient();
    for (const [timeZone, message] of [
      ["Mars/Olympus_Mons", "Please choose a valid time zone."],
      ["+05:30", "Please choose a valid time zone."],
      [330, "timeZone must be text"],
      [null, "Please choose a valid time zone."],
    ] as const) {
      const response = await callApi("POST", "/api/experts", {
        cookie: client.cookie,
        body: { ...creation(), timeZone },
      });
      expect(response.status, String(timeZone)).toBe(400);
      expect((await json(response)).fieldErrors, String(timeZone)).toEqual({ timeZone: [message] });
    }
    expect(await db().select().from(experts).where(eq(experts.userId, client.userId))).toEqual([]);
  });

  it("answers the sign-up messages (400) and creates nothing", async () => {
    const client = await signedInClient();
    const response = await callApi("POST", "/api/experts", {
      cookie: client.cookie,
      body: { ...creation(), bio: "Too short", sessionPrice: 1000, termsAgreed: false },
    });
    expect(response.status).toBe(400);
    expect((await json(response)).fieldErrors).toMatchObject({
      bio: ["Bio must be at least 50 characters"],
      sessionPrice: ["Session price must be at least $30"],
      termsAgreed: ["You must agree to the terms and conditions"],
    });
    expect(await db().select().from(experts).where(eq(experts.userId, client.userId))).toEqual([]);
    const quoted = await callApi("POST", "/api/experts", {
      cookie: client.cookie,
      body: { ...creation(), questionRate: "1500" },
    });
    expect(quoted.status).toBe(400);
    expect(await errorOf(quoted)).toBe("questionRate must be a number");
    expect(await db().select().from(experts).where(eq(experts.userId, client.userId))).toEqual([]);
  });

  it("refuses a signed-out caller (401) and a profile for someone else (403)", async () => {
    expect((await callApi("POST", "/api/experts", { body: creation() })).status).toBe(401);
    const client = await signedInClient();
    const victim = await signedInClient();
    const response = await callApi("POST", "/api/experts", {
      cookie: client.cookie,
      body: { ...creation(), userId: victim.userId },
    });
    expect(response.status).toBe(403);
    expect(await db().select().from(experts).where(eq(experts.userId, victim.userId))).toEqual([]);
  });
});

describe("categories", () => {
  it("lists categories, finds one by slug and lists its experts", async () => {
    const { expert } = await signedInExpert();
    const list = await json(await callApi("GET", "/api/categories"));
    expect(list.map((c: { slug: string }) => c.slug)).toContain("tech-and-ai");
    const bySlug = await callApi("GET", "/api/categories/slug/tech-and-ai");
    expect(await json(bySlug)).toMatchObject({ id: category("tech-and-ai").id, slug: "tech-and-ai" });
    // Every page: other tests in this file add experts to the same category.
    const members: number[] = [];
    for (let page = 1, pages = 1; page <= pages; page++) {
      const response = await callApi(
        "GET",
        `/api/categories/id/${category("tech-and-ai").id}/experts?page=${page}`,
      );
      pages = Number(response.headers.get("X-Page-Count"));
      members.push(...(await json(response)).map((card: { id: number }) => card.id));
    }
    expect(members).toContain(expert.id);
  });

  it("answers 404 for an unknown slug or id", async () => {
    expect((await callApi("GET", "/api/categories/slug/no-such-thing")).status).toBe(404);
    expect((await callApi("GET", "/api/categories/id/999999/experts")).status).toBe(404);
    expect((await callApi("GET", "/api/categories/id/abc/experts")).status).toBe(404);
  });
});

describe("an unknown API path", () => {
  it("answers a JSON 404 for any method", async () => {
    for (const path of ["/api/no-such-call", "/api", "/api/"]) {
      for (const method of ["GET", "POST", "PUT", "DELETE"]) {
        const response = await callApi(method, path);
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(await errorOf(response), `${method} ${path}`).toMatch(/No such API call/);
      }
    }
  });
});

describe("POST /api/experts/{id}/upload/{kind}", () => {
  it("answers 415 for a body that is not multipart, changing nothing", async () => {
    const { expert, cookie } = await signedInExpert();
    const response = await callApi("POST", `/api/experts/${expert.id}/upload/profile`, {
      cookie,
      body: { image: "https://example.com/me.png" },
    });
    expect(response.status).toBe(415);
    const [row] = await db().select().from(experts).where(eq(experts.id, expert.id));
    expect(row.profileImage).toBeNull();
  });
});
