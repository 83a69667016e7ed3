import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Category, type Expert, userFavorites } from "~/db/schema.server";
import { BASE, db, get, insertAccount, postForm, signIn } from "./support/accounts";
import { addExpert, categoriesBySlug, d1Queries, eventually } from "./support/discovery";

let categories: Map<string, Category>;
let ada: Expert;
let bob: Expert;

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
  ({ expert: bob } = await addExpert(categories, {
    first: "Bob",
    last: "Builder",
    title: "Contractor",
    categories: ["legal"],
    questionRate: 900,
  }));
});

const favoritesOf = (userId: number) =>
  db().select().from(userFavorites).where(eq(userFavorites.userId, userId));

const api = (path: string, method: string, cookie = "") =>
  SELF.fetch(`${BASE}${path}`, {
    method,
    redirect: "manual",
    headers: { Origin: BASE, ...(cookie ? { Cookie: cookie } : {}) },
  });

describe("the favourite heart on a profile", () => {
  it("adds and removes a favourite for the signed-in user, once however often it is pressed", async () => {
    const { userId } = await insertAccount("fan", "fan-pass-1");
    const cookie = await signIn("fan", "fan-pass-1");
    for (let press = 0; press < 2; press++) {
      const response = await postForm(`/expert/${ada.id}`, { intent: "favorite" }, { cookie });
      expect(response.status).toBe(200);
    }
    expect(await favoritesOf(userId)).toMatchObject([{ userId, expertId: ada.id }]);

    const page = await (await get("/ada-quill", cookie)).text();
    expect(page).toMatch(/aria-pressed="true"[^>]*aria-label="Favorite Ada Quill"/);

    const removed = await postForm("/ada-quill", { intent: "unfavorite" }, { cookie });
    expect(removed.status).toBe(200);
    expect(await favoritesOf(userId)).toEqual([]);
    const after = await (await get(`/experts/${ada.id}`, cookie)).text();
    expect(after).toMatch(/aria-pressed="false"[^>]*aria-label="Favorite Ada Quill"/);
  });

  it("reads the heart in the session lookup's round trip, and only the viewer's own favourite", async () => {
    const { userId: fanId } = await insertAccount("heart-fan", "heart-fan-pass-1");
    const { userId: otherId } = await insertAccount("heart-other", "heart-other-pass-1");
    await db()
      .insert(userFavorites)
      .values([
        { userId: fanId, expertId: ada.id },
        { userId: otherId, expertId: bob.id },
      ]);
    const cookie = await signIn("heart-fan", "heart-fan-pass-1");
    const heart = (html: string, name: string) =>
      new RegExp(`aria-pressed="(true|false)"[^>]*aria-label="Favorite ${name}"`).exec(html)?.[1];

    // Once the profile's read model is in KV, the session and the heart are the page's only read.
    const pageInOneRoundTrip = (path: string) =>
      eventually(async () => {
        const response = await get(path, cookie);
        const html = await response.text();
        return d1Queries(response) === 1 && html;
      }, `${path} signed in, read in one D1 round trip`);
    expect(heart(await pageInOneRoundTrip(`/expert/${ada.id}`), "Ada Quill")).toBe("true");
    expect(heart(await (await get("/ada-quill", cookie)).text(), "Ada Quill")).toBe("true");
    expect((await get("/ADA-quill", cookie)).headers.get("Location")).toBe("/ada-quill");
    const bobPage = await pageInOneRoundTrip(`/experts/${bob.id}`);
    expect(heart(bobPage, "Bob Builder")).toBe("false");
  });

  it("sends a signed-out visitor to sign in and stores nothing", async () => {
    const before = await db().select().from(userFavorites);
    const response = await postForm(`/expert/${ada.id}`, { intent: "favorite" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(
      `/auth?redirectTo=${encodeURIComponent(`/expert/${ada.id}`)}`,
    );
    expect(await db().select().from(userFavorites)).toEqual(before);
  });

  it("answers 404 for an expert that does not exist (or left) and stores nothing", async () => {
    const { userId } = await insertAccount("ghost-fan", "ghost-pass-1");
    const cookie = await signIn("ghost-fan", "ghost-pass-1");
    for (const path of ["/expert/999999", "/no-such-expert", "/experts/abc"]) {
      const response = await postForm(path, { intent: "favorite" }, { cookie });
      expect(response.status, path).toBe(404);
    }
    const { expert: gone } = await addExpert(categories, {
      first: "Gone",
      last: "Away",
      title: "Former",
      categories: ["sales"],
      questionRate: 600,
    });
    await env.DB.prepare("UPDATE experts SET deleted_at = 1 WHERE id = ?").bind(gone.id).run();
    expect((await postForm(`/expert/${gone.id}`, { intent: "favorite" }, { cookie })).status).toBe(404);
    expect((await api(`/api/user/favorites/${gone.id}`, "POST", cookie)).status).toBe(404);
    expect((await api("/api/user/favorites/999999", "POST", cookie)).status).toBe(404);
    expect(await favoritesOf(userId)).toEqual([]);
  });

  it("refuses an unknown intent with 400, and a request from another site with 403", async () => {
    const { userId } = await insertAccount("picky", "picky-pass-1");
    const cookie = await signIn("picky", "picky-pass-1");
    expect((await postForm(`/expert/${ada.id}`, { intent: "delete-everything" }, { cookie })).status).toBe(
      400,
    );
    const crossSite = await postForm(
      `/expert/${ada.id}`,
      { intent: "favorite" },
      { cookie, origin: "https://evil.example" },
    );
    expect(crossSite.status).toBe(403);
    expect(await favoritesOf(userId)).toEqual([]);
  });
});

describe("the favourites API", () => {
  it("needs a signed-in user", async () => {
    expect((await api("/api/user/favorites", "GET")).status).toBe(401);
    expect((await api(`/api/user/favorites/${ada.id}`, "POST")).status).toBe(401);
    expect((await api(`/api/user/favorites/${ada.id}`, "DELETE")).status).toBe(401);
    expect((await api(`/api/user/favorites/${ada.id}/status`, "GET")).status).toBe(401);
  });

  it("adds, reports, lists and removes only the caller's own favourites", async () => {
    const { userId } = await insertAccount("api-fan", "api-pass-1");
    const { userId: otherId } = await insertAccount("other-fan", "other-pass-1");
    const cookie = await signIn("api-fan", "api-pass-1");
    const otherCookie = await signIn("other-fan", "other-pass-1");

    expect(await (await api(`/api/user/favorites/${ada.id}`, "POST", cookie)).json()).toEqual({
      favorited: true,
    });
    expect(await (await api(`/api/user/favorites/${bob.id}`, "POST", cookie)).json()).toEqual({
      favorited: true,
    });
    const status = await api(`/api/user/favorites/${ada.id}/status`, "GET", cookie);
    // The favourite is read in the session lookup's batch.
    expect(d1Queries(status)).toBe(1);
    expect(await status.json()).toEqual({ favorited: true });
    // An id that is not one is a 404, as on POST; an id no expert has is not a favourite.
    for (const id of ["abc", "2.5", "0x1"]) {
      const bad = await api(`/api/user/favorites/${id}/status`, "GET", cookie);
      expect(bad.status, id).toBe(404);
      expect(await bad.json(), id).toEqual({ error: "Expert not found" });
    }
    expect((await api("/api/user/favorites/abc/status", "GET")).status).toBe(401);
    expect(await (await api("/api/user/favorites/999999/status", "GET", cookie)).json()).toEqual({
      favorited: false,
    });
    expect(await (await api(`/api/user/favorites/${ada.id}/status`, "GET", otherCookie)).json()).toEqual({
      favorited: false,
    });
    const list = (await (await api("/api/user/favorites", "GET", cookie)).json()) as { id: number }[];
    expect(list.map((expert) => expert.id).sort()).toEqual([ada.id, bob.id].sort());
    expect(await (await api("/api/user/favorites", "GET", otherCookie)).json()).toEqual([]);

    // The other user removing Ada removes only their own (absent) row.
    await api(`/api/user/favorites/${ada.id}`, "DELETE", otherCookie);
    expect(await favoritesOf(userId)).toHaveLength(2);
    expect(await (await api(`/api/user/favorites/${ada.id}`, "DELETE", cookie)).json()).toEqual({
      favorited: false,
    });
    expect(
      await db()
        .select()
        .from(userFavorites)
        .where(and(eq(userFavorites.userId, userId), eq(userFavorites.expertId, ada.id))),
    ).toEqual([]);
    expect(await favoritesOf(otherId)).toEqual([]);
  });
});
