import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getOptionalUser, readWithSession, type SessionQuery } from "~/auth/session.server";
import { type Category, type Expert, experts, sessions, userFavorites, users } from "~/db/schema.server";
import { favoritesMatching } from "~/models/favorites.server";
import { createLoadContext, requestBookmark } from "../../workers/load-context";
import { BASE, db, insertAccount, signIn } from "./support/accounts";
import { addExpert, categoriesBySlug } from "./support/discovery";

let categories: Map<string, Category>;
let cora: Expert;
let dan: Expert;

beforeAll(async () => {
  categories = await categoriesBySlug();
  ({ expert: cora } = await addExpert(categories, {
    first: "Cora",
    last: "Reed",
    title: "Reed Maker",
    categories: ["legal"],
    questionRate: 1500,
    customUrl: "cora-reed",
  }));
  ({ expert: dan } = await addExpert(categories, {
    first: "Dan",
    last: "Reed",
    title: "Reed Tuner",
    categories: ["legal"],
    questionRate: 1500,
  }));
});

/** A request's load context as the Worker builds it, with the request's own D1 query counter. */
function contextFor(cookie: string) {
  const request = new Request(`${BASE}/expert/${cora.id}`, cookie ? { headers: { Cookie: cookie } } : {});
  const executionContext = createExecutionContext();
  const { context } = createLoadContext(request, env, executionContext);
  return { context, request, settled: () => waitOnExecutionContext(executionContext) };
}

async function fanOfCora(username: string) {
  const { userId } = await insertAccount(username, `${username}-pass-1`);
  await db().insert(userFavorites).values({ userId, expertId: cora.id });
  return { userId, cookie: await signIn(username, `${username}-pass-1`) };
}

describe("reads that ride with the session lookup", () => {
  it("go in the lookup's batch when asked before any await: one D1 round trip for both", async () => {
    const { userId, cookie } = await fanOfCora("rider-one");
    const { context, request, settled } = contextFor(cookie);
    const [user, byId, byUrl, other] = await Promise.all([
      getOptionalUser(context, request),
      readWithSession(context, request, favoritesMatching({ id: cora.id })),
      readWithSession(context, request, favoritesMatching({ customUrl: "CORA-Reed" })),
      readWithSession(context, request, favoritesMatching({ id: dan.id })),
    ]);
    await settled();
    expect(user?.id).toBe(userId);
    expect(byId).toEqual([{ expertId: cora.id }]);
    expect(byUrl).toEqual([{ expertId: cora.id }]);
    expect(other).toEqual([]);
    expect(context.queries.count).toBe(1);
  });

  it("read the user whole in the batch, with the expert's id and photo apart from the user's", async () => {
    const { userId, expertId } = await insertAccount("rider-expert", "rider-expert-pass-1", {
      role: "expert",
    });
    await db().update(users).set({ profileImage: "/media/user-photo.jpg" }).where(eq(users.id, userId));
    await db()
      .update(experts)
      .set({ profileImage: "/media/expert-photo.jpg", customUrl: "rider-expert" })
      .where(eq(experts.id, Number(expertId)));
    const cookie = await signIn("rider-expert", "rider-expert-pass-1");
    const { context, request, settled } = contextFor(cookie);
    const [user] = await Promise.all([
      getOptionalUser(context, request),
      readWithSession(context, request, favoritesMatching({ id: cora.id })),
    ]);
    await settled();
    expect(user).toMatchObject({
      id: userId,
      username: "rider-expert",
      role: "expert",
      profileImage: "/media/user-photo.jpg",
      expertProfile: { id: expertId, customUrl: "rider-expert", profileImage: "/media/expert-photo.jpg" },
    });
    expect(context.queries.count).toBe(1);
  });

  it("make a round trip of their own when asked after the lookup went, with the same answer", async () => {
    const { userId, cookie } = await fanOfCora("rider-late");
    const { context, request, settled } = contextFor(cookie);
    expect((await getOptionalUser(context, request))?.id).toBe(userId);
    expect(await readWithSession(context, request, favoritesMatching({ id: cora.id }))).toEqual([
      { expertId: cora.id },
    ]);
    await settled();
    expect(context.queries.count).toBe(2);
  });

  it("answer null for an expired or revoked session, whatever the rider's own SQL would find", async () => {
    const { userId, cookie } = await fanOfCora("rider-expired");
    await db()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, userId));
    const expired = contextFor(cookie);
    const [user, favorites] = await Promise.all([
      getOptionalUser(expired.context, expired.request),
      readWithSession(expired.context, expired.request, favoritesMatching({ id: cora.id })),
    ]);
    await expired.settled();
    expect(user).toBeNull();
    expect(favorites).toBeNull();

    await db().delete(sessions).where(eq(sessions.userId, userId));
    const revoked = contextFor(cookie);
    expect(await readWithSession(revoked.context, revoked.request, favoritesMatching({ id: cora.id }))).toBe(
      null,
    );
    await revoked.settled();
  });

  it("cost nothing without a session cookie", async () => {
    const { context, request, settled } = contextFor("");
    const [user, favorites] = await Promise.all([
      getOptionalUser(context, request),
      readWithSession(context, request, favoritesMatching({ id: cora.id })),
    ]);
    await settled();
    expect(user).toBeNull();
    expect(favorites).toBeNull();
    expect(context.queries.count).toBe(0);
  });

  it("fail together with the lookup when the batch fails, and the user lookup reports it too", async () => {
    const { cookie } = await insertAccount("rider-fault", "rider-fault-pass-1").then(async () => ({
      cookie: await signIn("rider-fault", "rider-fault-pass-1"),
    }));
    const broken: SessionQuery<unknown> = (database) => database.all(sql`SELECT * FROM no_such_table`);
    const { context, request, settled } = contextFor(cookie);
    const [user, rider] = await Promise.allSettled([
      getOptionalUser(context, request),
      readWithSession(context, request, broken),
    ]);
    await settled();
    expect(user.status).toBe("rejected");
    expect(rider.status).toBe("rejected");
    expect(String((rider as PromiseRejectedResult).reason)).toMatch(/no such table/);
  });
});

describe("the D1 bookmark a signed-in visitor is handed", () => {
  it("covers, after an action, what it wrote through the primary after what it read", async () => {
    const { cookie } = await fanOfCora("bookmark-writer");
    const contextOf = (method: string) => {
      const request = new Request(`${BASE}/expert/${cora.id}`, { method, headers: { Cookie: cookie } });
      return createLoadContext(request, env, createExecutionContext());
    };
    const readThenWrite = async (method: string) => {
      const state = contextOf(method);
      // A read through the visitor's session, then a write through the primary, as an action does.
      await state.context.db.select({ id: users.id }).from(users).limit(1);
      const afterRead = state.d1Session?.getBookmark();
      await state.context.primaryDb
        .update(users)
        .set({ name: `Bookmark Writer ${method}` })
        .where(eq(users.username, "bookmark-writer"));
      // Where the primary stood once the write was done (before the handed bookmark was taken).
      const probe = env.DB.withSession("first-primary");
      await probe.prepare("SELECT 1").run();
      return { state, afterRead, afterWrite: probe.getBookmark() };
    };

    const posted = await readThenWrite("POST");
    expect(posted.afterRead).toBeTruthy();
    // Bookmarks sort oldest to newest: the one handed on is no older than the write.
    const handed = await requestBookmark(posted.state, env, "POST");
    expect(String(handed) >= String(posted.afterWrite)).toBe(true);
    expect(String(handed) > String(posted.afterRead)).toBe(true);

    // A page (GET) that wrote nothing costs no extra query: it hands on its reads' bookmark.
    const page = contextOf("GET");
    await page.context.db.select({ id: users.id }).from(users).limit(1);
    expect(await requestBookmark(page, env, "GET")).toBe(page.d1Session?.getBookmark());
  });
});
