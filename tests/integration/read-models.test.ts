import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "~/db/client.server";
import type { Category, Expert } from "~/db/schema.server";
import { cacheKeys, invalidateCategories, invalidateExpert } from "~/services/cache.server";
import { readCategories, readExpertProfile, readFeaturedExperts } from "~/services/read-models.server";
import { insertQuestion, insertReview } from "../factories";
import { db, get, insertAccount, postForm, signIn } from "./support/accounts";
import { addExpert, cardNames, categoriesBySlug, waitForKv } from "./support/discovery";

/**
 * The KV read models behind the public pages, and their invalidation. Requests here are signed in:
 * they skip the edge cache (which keeps anonymous copies for a minute) but read the same KV models.
 */
let categories: Map<string, Category>;
let ada: Expert;
let cookie: string;

beforeAll(async () => {
  categories = await categoriesBySlug();
  ({ expert: ada } = await addExpert(categories, {
    first: "Ada",
    last: "Quill",
    title: "Analytical Engine Consultant",
    categories: ["tech-and-ai"],
    questionRate: 2500,
    customUrl: "ada-quill",
  }));
  await insertAccount("reader", "reader-pass-1");
  cookie = await signIn("reader", "reader-pass-1");
});

const page = async (path: string) => (await get(path, cookie)).text();

describe("the expert profile read model", () => {
  it("serves the cached profile until invalidateExpert, then the new one", async () => {
    expect(await page(`/expert/${ada.id}`)).toContain("Analytical Engine Consultant");
    expect(await page("/ada-quill")).toContain("Analytical Engine Consultant");
    await waitForKv(cacheKeys.expertProfile(ada.id));
    await waitForKv(cacheKeys.expertIdByCustomUrl("ada-quill"));
    await env.DB.prepare("UPDATE experts SET title = 'Difference Engine Designer' WHERE id = ?")
      .bind(ada.id)
      .run();
    // Still the stored read model: the page did not go to D1.
    expect(await page(`/expert/${ada.id}`)).toContain("Analytical Engine Consultant");
    expect(await page("/ada-quill")).toContain("Analytical Engine Consultant");

    await invalidateExpert({ cache: env.CACHE }, { id: ada.id, customUrls: ["ada-quill"] });
    expect(await page(`/expert/${ada.id}`)).toContain("Difference Engine Designer");
    expect(await page("/ada-quill")).toContain("Difference Engine Designer");
  });

  it("follows a new custom URL after invalidation, and the old one stops answering", async () => {
    expect((await get("/ada-quill", cookie)).status).toBe(200);
    await waitForKv(cacheKeys.expertIdByCustomUrl("ada-quill"));
    await env.DB.prepare("UPDATE experts SET custom_url = 'ada-q' WHERE id = ?").bind(ada.id).run();
    await invalidateExpert({ cache: env.CACHE }, { id: ada.id, customUrls: ["ada-quill", "ada-q"] });
    expect((await get("/ada-q", cookie)).status).toBe(200);
    expect((await get("/ada-quill", cookie)).status).toBe(404);
    // Even when a writer forgets the old URL, its stale lookup never shows the expert under it.
    expect((await get("/ada-q", cookie)).status).toBe(200);
    await waitForKv(cacheKeys.expertIdByCustomUrl("ada-q"));
    await env.DB.prepare("UPDATE experts SET custom_url = 'ada-new' WHERE id = ?").bind(ada.id).run();
    await invalidateExpert({ cache: env.CACHE }, { id: ada.id, customUrls: ["ada-new"] });
    expect((await get("/ada-q", cookie)).status).toBe(404);
    expect((await get("/ada-new", cookie)).status).toBe(200);
  });

  it("shows a new review's rating after the expert is invalidated", async () => {
    await page(`/expert/${ada.id}`);
    await waitForKv(cacheKeys.expertProfile(ada.id));
    await insertReview(db(), { expertId: ada.id, rating: 2 });
    expect(await page(`/expert/${ada.id}`)).toContain("Rated 5.0 out of 5, no reviews yet");
    await invalidateExpert({ cache: env.CACHE }, { id: ada.id, customUrls: [] });
    expect(await page(`/expert/${ada.id}`)).toContain("Rated 2.0 out of 5 from 1 review");
  });
});

describe("the home page read models", () => {
  it("hides Featured Experts when there are none, and lists featured experts after invalidation", async () => {
    const before = await page("/");
    expect(before).not.toContain("Featured Experts");
    await waitForKv(cacheKeys.featuredExperts());

    await env.DB.prepare("UPDATE experts SET is_top_expert = 1 WHERE id = ?").bind(ada.id).run();
    expect(await page("/")).not.toContain("Featured Experts");
    // In-app navigations stream the featured experts in behind a skeleton instead of waiting.
    const data = await (await get("/_root.data", cookie, { "Sec-Fetch-Dest": "empty" })).text();
    expect(data).toContain('"featured",["P",');
    await invalidateExpert({ cache: env.CACHE }, { id: ada.id, customUrls: [] });
    const after = await page("/");
    expect(after).toContain("Featured Experts");
    expect(after).toContain("Browse All Experts");
    expect(cardNames(after)).toEqual(["Ada Quill"]);

    // A document asked for as if it were data (Sec-Fetch-Dest: empty) is still sent whole: the
    // experts in place, not a skeleton that a script at the end of the stream fills in.
    const whole = await (await get(`/?whole=${Date.now()}`, cookie, { "Sec-Fetch-Dest": "empty" })).text();
    expect(cardNames(whole)).toEqual(["Ada Quill"]);
    expect(whole).not.toMatch(/<div hidden id="S:/);
  });

  it("shows a new category everywhere once the categories are invalidated", async () => {
    await page("/experts");
    await waitForKv(cacheKeys.categories());
    await env.DB.prepare(
      "INSERT INTO categories (name, slug, display_order) VALUES ('Space Tourism', 'space-tourism', 50)",
    ).run();
    expect(await page("/experts")).not.toContain("Space Tourism");
    expect((await get("/category/space-tourism", cookie)).status).toBe(404);
    await invalidateCategories(env.CACHE);
    expect(await page("/experts")).toContain('<option value="space-tourism">Space Tourism</option>');
    expect((await get("/category/space-tourism", cookie)).status).toBe(200);
  });

  it("serves a warm home page without touching D1", async () => {
    await page("/");
    await waitForKv(cacheKeys.categories());
    await waitForKv(cacheKeys.featuredExperts());
    const response = await get("/", cookie);
    // The session lookup is the only D1 round trip left for a signed-in visitor.
    expect(Number(response.headers.get("X-D1-Queries"))).toBe(1);
    await response.body?.cancel();
  });
});

describe("writes that change a cached profile", () => {
  it("shows an expert's new name and their new answer count at once", async () => {
    const { userId, expertId } = await insertAccount("renamer", "renamer-pass-1", { role: "expert" });
    const expertCookie = await signIn("renamer", "renamer-pass-1");
    const profile = () => page(`/expert/${expertId}`);
    const answeredCount = async () => (await profile()).match(/class="profile__answered">(\d+)</)?.[1];
    expect(await profile()).toContain("renamer Name");
    expect(await answeredCount()).toBe("0");
    await waitForKv(cacheKeys.expertProfile(expertId!));

    const renamed = await postForm(
      "/expert/account",
      { intent: "profile", name: "Renata Renamed", email: "renata@example.com" },
      { cookie: expertCookie },
    );
    expect(renamed.status).toBe(200);
    expect(await profile()).toContain("Renata Renamed");

    await waitForKv(cacheKeys.expertProfile(expertId!));
    const question = await insertQuestion(db(), { expertId: expertId!, userId, status: "pending" });
    const answered = await postForm(
      `/questions/${question.id}/answer`,
      { answer: "Start with the customers you already have.", status: "answered" },
      { cookie: expertCookie },
    );
    expect(answered.status).toBe(200);
    expect(await answeredCount()).toBe("1");
  });
});

describe("where the read models come from", () => {
  it("fills KV from the primary database, never through the request's session (it may read a lagging replica)", async () => {
    // The request's session database here stands for a replica: any use of it fails the test.
    const replica = new Proxy({} as Database, {
      get(_, property) {
        throw new Error(`a KV read model was read through the request's session (db.${String(property)})`);
      },
    });
    const pending: Promise<unknown>[] = [];
    const context = {
      db: replica,
      primaryDb: createDatabase(env.DB),
      cache: env.CACHE,
      waitUntil: (promise: Promise<unknown>) => void pending.push(promise),
    };
    const row = await env.DB.prepare("SELECT custom_url FROM experts WHERE id = ?")
      .bind(ada.id)
      .first<{ custom_url: string }>();
    const customUrl = row!.custom_url;
    await invalidateExpert({ cache: env.CACHE }, { id: ada.id, customUrls: [customUrl] });
    await invalidateCategories(env.CACHE);
    await env.CACHE.delete(cacheKeys.featuredExperts());

    const byUrl = await readExpertProfile(context, { customUrl });
    expect(byUrl?.id).toBe(ada.id);
    await Promise.all(pending);
    expect((await readExpertProfile(context, { id: ada.id }))?.id).toBe(ada.id);
    await env.CACHE.delete(cacheKeys.expertProfile(ada.id));
    expect((await readExpertProfile(context, { id: ada.id }))?.id).toBe(ada.id);
    expect((await readCategories(context)).length).toBeGreaterThan(0);
    expect(Array.isArray(await readFeaturedExperts(context))).toBe(true);
    await Promise.all(pending);
    await waitForKv(cacheKeys.categories());
    await waitForKv(cacheKeys.featuredExperts());
    await waitForKv(cacheKeys.expertProfile(ada.id));
  });
});
