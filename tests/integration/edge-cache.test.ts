import { SELF } from "cloudflare:test";
import * as build from "virtual:remix-server-build";
import { beforeAll, describe, expect, it } from "vitest";
import type { Expert } from "~/db/schema.server";
import { PRIVATE_CACHE_CONTROL, PUBLIC_PAGE_CACHE_CONTROL } from "~/services/cache.server";
import { edgeCacheKey, HotCopies, serveWithEdgeCache } from "../../workers/edge-cache";
import { BASE, get, insertAccount, postForm, signIn } from "./support/accounts";
import { callApi } from "./support/api";
import { addExpert, anonymous, categoriesBySlug, eventually } from "./support/discovery";
import { newClient, newExpert, pendingQuestion } from "./support/questions";

const edge = () => (caches as unknown as { default: Cache }).default;
/** The edge-cache key of an anonymous GET of `path` (the Worker adds the build's version). */
const keyOf = (path: string) => edgeCacheKey(new Request(`${BASE}${path}`), build.assets.version) ?? "";
const status = (response: Response) => response.headers.get("X-Edge-Cache");

let ada: Expert;
let cookie: string;

beforeAll(async () => {
  const categories = await categoriesBySlug();
  ({ expert: ada } = await addExpert(categories, {
    first: "Ada",
    last: "Quill",
    title: "Analytical Engine Consultant",
    categories: ["tech-and-ai"],
    questionRate: 2500,
    isTopExpert: true,
    customUrl: "ada-quill",
  }));
  await insertAccount("cache-client", "cache-pass-1");
  cookie = await signIn("cache-client", "cache-pass-1");
});

/** Stores `body` as the edge cache's copy of `path`, as if stored `ageMs` ago. */
async function storeCopy(path: string, body: string, ageMs: number) {
  await edge().put(
    keyOf(path),
    new Response(body, {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "public, s-maxage=360",
        "X-Edge-Cache-Control": PUBLIC_PAGE_CACHE_CONTROL,
        "X-Edge-Stored-At": String(Date.now() - ageMs),
      },
    }),
  );
}

/** Requests `path` anonymously until the edge cache answers it (its copy is stored in the background). */
async function untilHit(path: string) {
  return eventually(async () => {
    const response = await anonymous(path);
    const body = await response.text();
    return status(response) === "HIT" ? { response, body } : null;
  }, `an edge-cache hit for ${path}`);
}

describe("Cache-Control of the public pages", () => {
  it("lets shared caches keep anonymous home, browse, category, profile and information pages", async () => {
    for (const path of [
      "/",
      "/experts",
      "/browse",
      "/category/tech-and-ai",
      `/expert/${ada.id}`,
      `/experts/${ada.id}`,
      "/ada-quill",
      "/about",
      "/privacy-policy",
      "/terms-of-service",
    ]) {
      const response = await anonymous(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("Cache-Control"), path).toBe(PUBLIC_PAGE_CACHE_CONTROL);
      expect(response.headers.get("Vary"), path).toContain("Cookie");
      await response.body?.cancel();
    }
  });

  it("marks the same pages private, no-store for anyone with a session cookie", async () => {
    for (const path of [
      "/",
      "/experts",
      "/category/tech-and-ai",
      "/ada-quill",
      "/about",
      "/_root.data",
      "/dashboard",
    ]) {
      const response = await get(path, cookie);
      expect(response.headers.get("Cache-Control"), path).toBe(PRIVATE_CACHE_CONTROL);
      expect(status(response), path).toBe("BYPASS");
      await response.body?.cancel();
    }
  });
});

describe("the edge cache", () => {
  it("renders an anonymous page once, then serves the stored copy", async () => {
    const first = await anonymous("/experts?sort=price_high");
    expect(status(first)).toBe("MISS");
    await first.body?.cancel();
    const { response, body } = await untilHit("/experts?sort=price_high");
    expect(response.headers.get("Cache-Control")).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    expect(Number(response.headers.get("Age"))).toBeGreaterThanOrEqual(0);
    expect(response.headers.get("X-D1-Queries")).toBe("0");
    expect(response.headers.get("X-Request-Id")).toBeTruthy();
    expect(response.headers.has("X-Edge-Stored-At")).toBe(false);
    expect(body).toContain("Ada Quill");
  });

  it("serves the information pages from the store, and never to a visitor with a session", async () => {
    for (const path of ["/about", "/privacy-policy", "/terms-of-service"]) {
      const { body } = await untilHit(path);
      expect(body, path).toContain("<h1");
    }
    const signedIn = await get("/terms-of-service", cookie);
    expect(status(signedIn)).toBe("BYPASS");
    expect(await signedIn.text()).toContain("Logout");
  });

  it("answers a browser's revalidation of a stored copy it already has with 304 and no body", async () => {
    const { response } = await untilHit("/experts?sort=newest");
    const etag = response.headers.get("ETag");
    expect(etag).toMatch(/^W\/"[0-9a-f]{16,}"$/);
    const again = await anonymous("/experts?sort=newest", { "If-None-Match": etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("ETag")).toBe(etag);
    expect(again.headers.get("Cache-Control")).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    expect(again.headers.get("Content-Security-Policy")).toContain("script-src");
    // Another copy (or none) is sent whole.
    const other = await anonymous("/experts?sort=newest", { "If-None-Match": 'W/"0000000000000000"' });
    expect(other.status).toBe(200);
    expect(await other.text()).toContain("Ada Quill");
    // A signed-in visitor's page is never a stored copy, so it is never "not modified".
    const signedIn = await get("/experts?sort=newest", cookie, { "If-None-Match": etag! });
    expect(signedIn.status).toBe(200);
    await signedIn.body?.cancel();
  });

  it("sends a stored copy's gzip bytes to a client that takes gzip, and unpacks it for one that does not", async () => {
    const { body } = await untilHit("/experts?sort=top_rated");
    const zipped = await SELF.fetch(`${BASE}/experts?sort=top_rated`, {
      headers: { "Accept-Encoding": "gzip, br" },
    });
    expect(status(zipped)).toBe("HIT");
    expect(zipped.headers.get("Content-Encoding")).toBe("gzip");
    expect(zipped.headers.get("Vary")).toMatch(/Accept-Encoding/);
    const bytes = new Uint8Array(await zipped.arrayBuffer());
    // Either the runtime already unpacked it for us, or these are gzip's magic bytes: both the page.
    const unpacked =
      bytes[0] === 0x1f && bytes[1] === 0x8b
        ? await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text()
        : new TextDecoder().decode(bytes);
    expect(unpacked).toBe(body);
    const plain = await SELF.fetch(`${BASE}/experts?sort=top_rated`, {
      headers: { "Accept-Encoding": "identity" },
    });
    expect(status(plain)).toBe("HIT");
    expect(plain.headers.has("Content-Encoding")).toBe(false);
    expect(await plain.text()).toBe(body);
  });

  it("caches Remix data requests of public pages too", async () => {
    const first = await anonymous("/ada-quill.data");
    expect(first.status).toBe(200);
    await first.body?.cancel();
    const { body } = await untilHit("/ada-quill.data");
    expect(body).toContain("Analytical Engine Consultant");
  });

  it("never gives a signed-in visitor the stored anonymous page", async () => {
    const { body: anonymousPage } = await untilHit("/");
    expect(anonymousPage).toContain("Sign Up");
    const response = await get("/", cookie);
    expect(status(response)).toBe("BYPASS");
    const page = await response.text();
    expect(page).toContain("My Dashboard");
    expect(page).not.toContain(">Sign Up<");
  });

  it("bypasses the cache for a flash toast, unknown query parameters and non-GET requests", async () => {
    await untilHit("/category/tech-and-ai");
    const toast = await anonymous("/category/tech-and-ai", { Cookie: "__toast=abc" });
    expect(status(toast)).toBe("BYPASS");
    await toast.body?.cancel();
    const tracking = await anonymous("/category/tech-and-ai?utm_source=newsletter");
    expect(status(tracking)).toBe("BYPASS");
    await tracking.body?.cancel();
    const post = await postForm("/ada-quill", { intent: "favorite" });
    expect(status(post)).toBe("BYPASS");
  });

  it("does not store not-found pages", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await anonymous("/expert/424242");
      expect(response.status).toBe(404);
      expect(status(response)).toBe("MISS");
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(await edge().match(keyOf("/expert/424242"))).toBeUndefined();
  });

  it("serves a copy past s-maxage while it re-renders in the background (stale-while-revalidate)", async () => {
    await storeCopy("/category/legal", "stale copy", 120_000);
    const stale = await anonymous("/category/legal");
    expect(status(stale)).toBe("STALE");
    expect(await stale.text()).toBe("stale copy");
    expect(Number(stale.headers.get("Age"))).toBeGreaterThanOrEqual(120);
    expect(stale.headers.get("Cache-Control")).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    const { body } = await untilHit("/category/legal");
    expect(body).toContain("<h1>Legal Experts</h1>");
  });

  it("forgets a stale copy whose page is gone, instead of serving it until it expires", async () => {
    const key = keyOf("/expert/424243");
    await storeCopy("/expert/424243", "a deleted expert's profile", 120_000);
    const stale = await anonymous("/expert/424243");
    expect(status(stale)).toBe("STALE");
    await stale.body?.cancel();
    // The background render found nothing: the next visitor gets the not-found page.
    const gone = await eventually(async () => {
      const response = await anonymous("/expert/424243");
      await response.body?.cancel();
      return response.status === 404 ? response : null;
    }, "the not-found page once the stale copy is forgotten");
    expect(status(gone)).toBe("MISS");
    expect(await edge().match(key)).toBeUndefined();
  });

  it("keys every copy by the build, so a new deploy never serves pages of the previous one", async () => {
    const { body } = await untilHit("/category/funding-and-finance");
    expect(body).toContain("Funding and Finance Experts");
    const stored = await edge().match(keyOf("/category/funding-and-finance"));
    expect(stored).toBeDefined();
    await stored?.body?.cancel();
    expect(await edge().match(`${BASE}/category/funding-and-finance`)).toBeUndefined();
    expect(keyOf("/category/legal")).toContain(`__build=${build.assets.version}`);
  });

  it("renders anew once a copy is older than s-maxage plus stale-while-revalidate", async () => {
    await storeCopy("/category/sales", "expired copy", 400_000);
    const response = await anonymous("/category/sales");
    expect(status(response)).toBe("MISS");
    expect(await response.text()).toContain("<h1>Sales Experts</h1>");
  });

  it("never stores a response that sets a cookie, or one that is not public", async () => {
    const pending: Promise<unknown>[] = [];
    const options = {
      cache: edge(),
      waitUntil: (promise: Promise<unknown>) => pending.push(promise),
      buildVersion: build.assets.version,
      scriptNonce: () => "test-nonce",
    };
    const request = new Request(`${BASE}/category/e-commerce`);
    await serveWithEdgeCache(
      request,
      async () =>
        new Response("with a cookie", {
          headers: { "Cache-Control": PUBLIC_PAGE_CACHE_CONTROL, "Set-Cookie": "a=b" },
        }),
      options,
    );
    await serveWithEdgeCache(
      new Request(`${BASE}/category/niche-models`),
      async () => new Response("private", { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } }),
      options,
    );
    await Promise.all(pending);
    expect(await edge().match(keyOf("/category/e-commerce"))).toBeUndefined();
    expect(await edge().match(keyOf("/category/niche-models"))).toBeUndefined();
    // The same helper does store a public page, so the checks above are not vacuous.
    await serveWithEdgeCache(
      new Request(`${BASE}/category/sales?page=9`),
      async () => new Response("public", { headers: { "Cache-Control": PUBLIC_PAGE_CACHE_CONTROL } }),
      options,
    );
    await Promise.all(pending);
    const stored = await edge().match(keyOf("/category/sales?page=9"));
    // Stored compressed, so a hit sends the bytes as they are.
    expect(stored?.headers.get("Content-Encoding")).toBe("gzip");
    const unpacked = stored?.body?.pipeThrough(new DecompressionStream("gzip"));
    expect(await new Response(unpacked).text()).toBe("public");
  });
});

describe("the copies an isolate keeps in memory", () => {
  const PAGE = "<!DOCTYPE html><html><body><h1>Kept page</h1><script>1</script></body></html>";

  /** A Cache API cache of its own, counting lookups, and a counting renderer of one public page. */
  async function setUp(name: string, { startsAt = Date.now() } = {}) {
    const backing = await caches.open(name);
    const counts = { matches: 0, renders: 0 };
    const cache = {
      match: (key: RequestInfo) => {
        counts.matches++;
        return backing.match(key);
      },
      put: (key: RequestInfo, response: Response) => backing.put(key, response),
    } as Cache;
    const pending: Promise<unknown>[] = [];
    let clock = startsAt;
    const options = {
      cache,
      hot: new HotCopies(),
      waitUntil: (promise: Promise<unknown>) => pending.push(promise),
      now: () => clock,
      scriptNonce: () => "test-nonce",
    };
    const render = async () => {
      counts.renders++;
      return new Response(PAGE, {
        headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": PUBLIC_PAGE_CACHE_CONTROL },
      });
    };
    const serve = (init?: RequestInit) =>
      serveWithEdgeCache(new Request(`${BASE}/category/legal?page=${name}`, init), render, options);
    const settle = async () => {
      while (pending.length > 0) await Promise.all(pending.splice(0));
    };
    return { backing, counts, options, serve, settle, advance: (ms: number) => (clock += ms) };
  }

  it("answers repeat hits from memory, with the stored bytes every time, and no Cache API lookup", async () => {
    const { counts, serve, settle } = await setUp("hot-hits");
    const first = await serve();
    expect(status(first)).toBe("MISS");
    await first.body?.cancel();
    await settle();
    const gzipped: ArrayBuffer[] = [];
    for (let hit = 0; hit < 3; hit++) {
      const response = await serve({ headers: { "Accept-Encoding": "gzip" } });
      expect(status(response)).toBe("HIT");
      expect(response.headers.get("Content-Encoding")).toBe("gzip");
      expect(response.headers.get("Cache-Control")).toBe(PUBLIC_PAGE_CACHE_CONTROL);
      expect(response.headers.has("X-Edge-Stored-At")).toBe(false);
      gzipped.push(await response.arrayBuffer());
    }
    const plain = await serve();
    expect(status(plain)).toBe("HIT");
    expect(await plain.text()).toBe(PAGE);
    const unpack = (bytes: ArrayBuffer) =>
      new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
    for (const bytes of gzipped) expect(await unpack(bytes)).toBe(PAGE);
    expect(counts).toEqual({ matches: 1, renders: 1 });
  });

  it("keeps a copy another isolate stored once it has looked it up", async () => {
    // Both isolates read the same time: a copy stored a millisecond "later" would be from the future.
    const startsAt = Date.now();
    const { backing, counts, options, serve } = await setUp("hot-from-cache-api", { startsAt });
    const elsewhere = await setUp("hot-from-cache-api", { startsAt });
    const stored = await elsewhere.serve();
    await stored.body?.cancel();
    await elsewhere.settle();
    const inCacheApi = await backing.match(`${BASE}/category/legal?page=hot-from-cache-api`);
    expect(inCacheApi).toBeDefined();
    await inCacheApi?.body?.cancel();
    for (let hit = 0; hit < 3; hit++) {
      const response = await serve();
      expect(status(response)).toBe("HIT");
      expect(await response.text()).toBe(PAGE);
    }
    // One lookup of the copy, and one of when pages were last purged (it is a copy under a query).
    expect(counts).toEqual({ matches: 2, renders: 0 });
    expect(options.hot.size).toBe(1);
  });

  it("serves a stale copy from memory while one background render refreshes it", async () => {
    const { counts, serve, settle, advance } = await setUp("hot-stale");
    await (await serve()).body?.cancel();
    await settle();
    advance(120_000); // past s-maxage (60 s), within stale-while-revalidate (300 s)
    const stale = await Promise.all([serve(), serve(), serve()]);
    for (const response of stale) {
      expect(status(response)).toBe("STALE");
      expect(await response.text()).toBe(PAGE);
    }
    await settle();
    expect(counts.renders).toBe(2);
    const refreshed = await serve();
    expect(status(refreshed)).toBe("HIT");
    expect(Number(refreshed.headers.get("Age"))).toBe(0);
    await refreshed.body?.cancel();
  });

  it("renders anew once the copy in memory is past s-maxage plus stale-while-revalidate", async () => {
    const { counts, serve, settle, advance } = await setUp("hot-expired");
    await (await serve()).body?.cancel();
    await settle();
    advance(400_000);
    const response = await serve();
    expect(status(response)).toBe("MISS");
    expect(await response.text()).toBe(PAGE);
    expect(counts.renders).toBe(2);
  });
});

describe("a change an expert saves", () => {
  it("shows on their public pages at once: the stored copies of those pages are forgotten", async () => {
    const expert = await newExpert("purged", 2100);
    const save = (body: Record<string, unknown>) =>
      callApi("PATCH", `/api/experts/${expert.expertId}`, { cookie: expert.cookie, body });
    const category = (await categoriesBySlug()).get("tech-and-ai")!;
    const first = await save({
      customUrl: "purge-before",
      categoryId: category.id,
      expertise: [category.name],
    });
    expect(first.status, await first.clone().text()).toBe(200);
    const byId = `/expert/${expert.expertId}`;
    const navigation = "/purge-before.data?_routes=routes%2F%24customUrl";
    const categoryPage = "/category/tech-and-ai";
    for (const path of ["/purge-before", byId, navigation, "/", categoryPage]) {
      const { body } = await untilHit(path);
      // The page shows dollars; its data carries cents.
      if (path !== "/") expect(body, path).toMatch(/21\.00|\b2100\b/);
    }

    expect((await save({ customUrl: "purge-after", questionRate: 4200 })).status).toBe(200);
    // The address given up is gone at once, and the profile shows the new price, rendered anew.
    const old = await anonymous("/purge-before");
    expect(old.status).toBe(404);
    await old.body?.cancel();
    const profile = await anonymous(byId);
    expect(status(profile)).toBe("MISS");
    expect(await profile.text()).toContain("42.00");
    const data = await anonymous(navigation);
    expect(status(data)).not.toBe("HIT");
    await data.body?.cancel();
    const home = await anonymous("/");
    expect(status(home)).toBe("MISS");
    await home.body?.cancel();
    const listed = await anonymous(categoryPage);
    expect(status(listed)).toBe("MISS");
    expect(await listed.text()).toContain("42.00");
  });

  it("stops serving the copies of lists under a query stored before it (pages, sorts, searches)", async () => {
    const expert = await newExpert("purged-lists", 2100);
    const variants = ["/experts?page=2", "/experts?sort=price_low", "/category/tech-and-ai?q=engine"];
    // Stored by another isolate of this data centre: in the Cache API, not in this isolate's memory.
    // Just now: after the purges of this file's earlier tests.
    for (const path of variants) await storeCopy(path, `stale copy of ${path}`, 0);
    const unrelated = "/experts?sort=rating";
    for (const path of variants) {
      const before = await anonymous(path);
      expect(status(before), path).toBe("HIT");
      expect(await before.text()).toBe(`stale copy of ${path}`);
    }

    const saved = await callApi("PATCH", `/api/experts/${expert.expertId}`, {
      cookie: expert.cookie,
      body: { questionRate: 4300 },
    });
    expect(saved.status).toBe(200);
    // A copy stored after the change is served again.
    await storeCopy(unrelated, "stored after the change", -1000);
    for (const path of variants) {
      const after = await anonymous(path);
      expect(status(after), path).toBe("MISS");
      expect(await after.text()).not.toContain("stale copy");
    }
    const later = await anonymous(unrelated);
    expect(status(later)).toBe("HIT");
    expect(await later.text()).toBe("stored after the change");
  });

  it("shows a new name and a new answer at the expert's custom address at once", async () => {
    const expert = await newExpert("renamed");
    const address = "/renamed-at-once";
    const category = (await categoriesBySlug()).get("tech-and-ai")!;
    const saved = await callApi("PATCH", `/api/experts/${expert.expertId}`, {
      cookie: expert.cookie,
      body: { customUrl: address.slice(1), categoryId: category.id, expertise: [category.name] },
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const answeredCount = (page: string) => page.match(/class="profile__answered">(\d+)</)?.[1];
    expect(answeredCount((await untilHit(address)).body)).toBe("0");

    // The account screens and PATCH /api/users/{id} rename the person behind the profile.
    const renamed = await callApi("PATCH", `/api/users/${expert.userId}`, {
      cookie: expert.cookie,
      body: { name: "Grace Renamed", email: "grace.renamed@example.com" },
    });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    const afterRename = await anonymous(address);
    expect(status(afterRename)).toBe("MISS");
    expect(await afterRename.text()).toContain("Grace Renamed");

    await untilHit(address);
    const client = await newClient("renamed-asker");
    const question = await pendingQuestion(client.userId, expert.expertId);
    const answered = await callApi("PATCH", `/api/questions/${question.id}`, {
      cookie: expert.cookie,
      body: { answer: "A full answer, long enough to be accepted by the answer rules.", status: "answered" },
    });
    expect(answered.status, await answered.clone().text()).toBe(200);
    const afterAnswer = await anonymous(address);
    expect(status(afterAnswer)).toBe("MISS");
    expect(answeredCount(await afterAnswer.text())).toBe("1");
  });
});
