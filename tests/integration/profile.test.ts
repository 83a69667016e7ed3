import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { Category, Expert } from "~/db/schema.server";
import { insertQuestion } from "../factories";
import { BASE, db } from "./support/accounts";
import { addExpert, anonymous, categoriesBySlug, d1Queries } from "./support/discovery";

let categories: Map<string, Category>;
let ada: Expert;
let plain: Expert;

beforeAll(async () => {
  categories = await categoriesBySlug();
  ({ expert: ada } = await addExpert(categories, {
    first: "Ada",
    last: "Quill",
    title: "Analytical Engine Consultant",
    bio: "Explains <b>mechanical</b> computation to curious founders.",
    categories: ["tech-and-ai", "business-automation"],
    questionRate: 2500,
    sessionPrice: 15000,
    isTopExpert: true,
    isVerified: true,
    customUrl: "ada-quill",
    ratings: [5, 4, 4],
    company: "Difference Works",
    location: "London, UK",
    profileImage: "/images/experts/aisha-rahman.svg",
    qualifications: "Member of the Analytical Society",
  }));
  ({ expert: plain } = await addExpert(categories, {
    first: "Pat",
    last: "Plain",
    title: "Generalist",
    categories: ["sales"],
    questionRate: 500,
    sessionPrice: 5000,
  }));
  const answered = {
    expertId: ada.id,
    status: "answered" as const,
    answeredAt: new Date(Date.UTC(2025, 4, 2)),
  };
  await insertQuestion(db(), {
    ...answered,
    question: "How do I start a punched-card business?",
    answer: "Begin with one loom and a patient customer.",
    showOnProfile: true,
  });
  await insertQuestion(db(), {
    ...answered,
    question: "A private question about my salary",
    answer: "A private answer.",
    showOnProfile: false,
  });
  await insertQuestion(db(), { expertId: ada.id, status: "pending", question: "Still waiting for this one" });
  await insertQuestion(db(), { expertId: ada.id, status: "rejected", question: "Declined question here" });
  await insertQuestion(db(), {
    expertId: ada.id,
    status: "awaiting_payment",
    question: "Not paid yet at all",
  });
});

async function html(path: string) {
  const response = await anonymous(path);
  expect(response.status, path).toBe(200);
  return response.text();
}

const canonicalOf = (page: string) => page.match(/<link rel="canonical" href="([^"]+)"/)?.[1];
const metaContent = (page: string, key: string) =>
  page.match(new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`))?.[1];

describe("the public expert profile", () => {
  it("answers at /expert/{id}, /expert/{customUrl}, /experts/{id} and /{customUrl} with one canonical URL", async () => {
    const paths = [`/expert/${ada.id}`, "/expert/ada-quill", `/experts/${ada.id}`, "/ada-quill"];
    for (const path of paths) {
      const page = await html(path);
      expect(page, path).toContain('<h1 id="profile-name" class="profile__name">Ada Quill</h1>');
      expect(canonicalOf(page), path).toBe(`${BASE}/ada-quill`);
      expect(metaContent(page, "og:url"), path).toBe(`${BASE}/ada-quill`);
    }
    // Without a custom URL the canonical address is /expert/{id}.
    expect(canonicalOf(await html(`/experts/${plain.id}`))).toBe(`${BASE}/expert/${plain.id}`);
  });

  it("sends every other spelling of an address to the one spelling, so each page is cached once", async () => {
    const spellings: Array<[string, string]> = [
      ["/Ada-Quill", "/ada-quill"],
      ["/ADA-QUILL?tab=qa", "/ada-quill?tab=qa"],
      ["/expert/ADA-quill", "/expert/ada-quill"],
      [`/expert/0${ada.id}`, `/expert/${ada.id}`],
      [`/experts/00${ada.id}`, `/experts/${ada.id}`],
    ];
    for (const [written, canonical] of spellings) {
      const response = await anonymous(written);
      expect(response.status, written).toBe(301);
      expect(response.headers.get("Location"), written).toBe(canonical);
      await response.body?.cancel();
    }
    // An unknown one is still the not-found page, not a redirect.
    expect((await anonymous("/expert/0424242")).status).toBe(404);
    // A custom URL stored with capitals (before they were refused) is spelled as every link spells it.
    const { expert: legacy } = await addExpert(categories, {
      first: "Lee",
      last: "Gacy",
      title: "Archivist",
      categories: ["sales"],
      questionRate: 500,
      customUrl: "Legacy-Case",
    });
    const lower = await anonymous("/legacy-case");
    expect(lower.status).toBe(200);
    expect(canonicalOf(await lower.text())).toBe(`${BASE}/legacy-case`);
    const stored = await anonymous("/Legacy-Case");
    expect(stored.status).toBe(301);
    expect(stored.headers.get("Location")).toBe("/legacy-case");
    expect(legacy.customUrl).toBe("Legacy-Case");
  });

  it("shows the header facts, badges, counts, rating and the ask and book prices", async () => {
    const page = await html("/ada-quill");
    expect(page).toContain("Verified Expert");
    expect(page).toContain("Top Expert");
    expect(page).toContain("Analytical Engine Consultant");
    expect(page).toContain("Difference Works");
    expect(page).toContain("London, UK");
    for (const name of ["Tech and AI", "Business Automation"]) expect(page).toContain(`>${name}</a>`);
    // Two answered questions (shown on the profile or not); pending and declined ones do not count.
    expect(page).toContain('<dd class="profile__answered">2</dd>');
    expect(page).toContain('aria-label="Rated 4.3 out of 5 from 3 reviews"');
    expect(page).toMatch(
      /href="\/ask\/\d+"[^>]*>Ask a Question <span class="profile-actions__price">\$25\.00<\/span>/,
    );
    expect(page).toMatch(
      /href="\/book\/\d+"[^>]*>Book Session <span class="profile-actions__price">\$150\.00<\/span>/,
    );
    expect(page).toContain(`href="/ask/${ada.id}"`);
    expect(page).toContain(`href="/book/${ada.id}"`);
    expect(page).toContain("profile__bottom-bar");
    expect(page).toContain(">Back<");
  });

  it("shows About with the bio, what they consult on and qualifications, escaping any markup", async () => {
    const page = await html("/ada-quill");
    expect(page).toContain("Explains &lt;b&gt;mechanical&lt;/b&gt; computation");
    expect(page).not.toContain("<b>mechanical</b>");
    expect(page).toContain("What I&#x27;m qualified to consult on");
    expect(page).toContain("Qualifications");
    expect(page).toContain("Member of the Analytical Society");
    const other = await html(`/expert/${plain.id}`);
    expect(other).not.toContain("Qualifications");
  });

  it("lists only answered questions the asker allowed on the Q&A tab, and has no Q&A tab without them", async () => {
    const page = await html("/ada-quill");
    expect(page).toContain("Q&amp;A (1)");
    expect(page).toContain("How do I start a punched-card business?");
    expect(page).toContain("Begin with one loom and a patient customer.");
    for (const hidden of ["A private question", "Still waiting", "Declined question", "Not paid yet"]) {
      expect(page).not.toContain(hidden);
    }
    const other = await html(`/expert/${plain.id}`);
    expect(other).not.toContain("Q&amp;A");
    expect(other).toContain(">About<");
  });

  it("gives unverified experts no Verified mark, and 5 stars until someone reviews them", async () => {
    const page = await html(`/expert/${plain.id}`);
    expect(page).not.toContain("Verified Expert");
    expect(page).not.toContain("Top Expert");
    expect(page).toContain("Rated 5.0 out of 5, no reviews yet");
    expect(page).toContain('<dd class="profile__answered">0</dd>');
  });

  it("takes initials by character, so a name that starts with an emoji shows it whole", async () => {
    const { expert } = await addExpert(categories, {
      first: "🚀Rocket",
      last: "😀Smile",
      title: "Launch Adviser",
      categories: ["sales"],
      questionRate: 900,
    });
    const page = await html(`/expert/${expert.id}`);
    // Half an emoji is written as U+FFFD by the server and kept by the browser: hydration fails.
    expect(page).not.toContain("\uFFFD");
    expect(page).toMatch(/avatar--initials[^>]*>🚀😀</);
  });

  it("takes initials from letters, so a name typed with markup or symbols shows none of them", async () => {
    const { expert } = await addExpert(categories, {
      first: "^_^ <b>Zoë</b>",
      last: "(`Quill`)",
      title: "Markup Tester",
      categories: ["sales"],
      questionRate: 900,
    });
    const page = await html(`/expert/${expert.id}`);
    expect(page).toContain("^_^ &lt;b&gt;Zoë&lt;/b&gt; (`Quill`)");
    expect(page).toMatch(/avatar--initials[^>]*>ZQ</);
  });

  it("has a unique title and description, sharing cards with the photo, and JSON-LD", async () => {
    const page = await html("/ada-quill");
    expect(page).toContain("<title>Ada Quill, Analytical Engine Consultant | Expert Answers</title>");
    expect(metaContent(page, "description")).toMatch(
      /^Ada Quill, Analytical Engine Consultant at Difference Works\./,
    );
    expect(metaContent(page, "og:image")).toBe(`${BASE}/images/experts/aisha-rahman.svg`);
    expect(metaContent(page, "twitter:image")).toBe(`${BASE}/images/experts/aisha-rahman.svg`);
    expect(metaContent(page, "twitter:card")).toBe("summary_large_image");
    expect(metaContent(page, "og:type")).toBe("profile");
    const json = page.match(/<script type="application\/ld\+json">([^<]*)<\/script>/)?.[1];
    expect(json).toBeDefined();
    // Remix escapes the JSON for the script tag; undo it to read it.
    const data = JSON.parse(
      (json ?? "")
        .replace(/\\u003c/g, "<")
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, "&"),
    );
    expect(data).toMatchObject({
      "@type": "ProfilePage",
      url: `${BASE}/ada-quill`,
      mainEntity: {
        "@type": "Person",
        name: "Ada Quill",
        jobTitle: "Analytical Engine Consultant",
        worksFor: { name: "Difference Works" },
        knowsAbout: ["Business Automation", "Tech and AI"],
      },
    });
    const other = await html(`/expert/${plain.id}`);
    expect(other).toContain("<title>Pat Plain, Generalist | Expert Answers</title>");
  });

  it("costs at most 2 D1 round trips, and none once the read model is in KV", async () => {
    const first = await anonymous(`/expert/${plain.id}?tab=about`);
    expect(first.status).toBe(200);
    expect(d1Queries(first)).toBeLessThanOrEqual(2);
    // Another address of the same expert: the profile comes from KV, not D1.
    let warm = 99;
    for (let attempt = 0; attempt < 40 && warm > 0; attempt++) {
      const response = await anonymous(`/experts/${plain.id}?tab=qa&n=${attempt}`);
      warm = d1Queries(response);
      await response.body?.cancel();
      if (warm > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(warm).toBe(0);
  });
});

describe("unknown experts and reserved words", () => {
  const notFound = async (path: string) => {
    const response = await anonymous(path);
    expect(response.status, path).toBe(404);
    const page = await response.text();
    expect(page, path).toContain("404 Page Not Found");
    expect(page, path).toContain("Did you forget to add the page to the router?");
    return response;
  };

  it("answers 404 with the not-found screen for unknown ids and custom URLs", async () => {
    for (const path of [
      "/expert/999999",
      "/experts/999999",
      "/experts/abc",
      "/experts/-1",
      "/experts/0",
      "/experts/1e3",
      "/expert/-5",
      "/expert/no-such-expert",
      "/no-such-expert",
      "/x",
      "/ada-quill-",
      "/%3Cscript%3E",
      `/${"a".repeat(60)}`,
    ]) {
      await notFound(path);
    }
  });

  it("never shadows a page of the app, and refuses reserved words before asking D1", async () => {
    // Even if a row somehow holds a reserved custom URL, the app's pages win.
    await env.DB.prepare("UPDATE experts SET custom_url = 'about' WHERE id = ?").bind(plain.id).run();
    const about = await anonymous("/about");
    expect(about.status).toBe(200);
    expect(await about.text()).toContain("About Expert Answers");
    const dashboard = await anonymous("/dashboard");
    expect(dashboard.status).toBe(302);
    for (const path of ["/questions", "/webhooks", "/sitemap"]) {
      const response = await notFound(path);
      expect(d1Queries(response), path).toBe(0);
    }
    // /api is the JSON API's: its own 404, as JSON, still without asking D1 for an expert.
    const api = await anonymous("/api");
    expect(api.status).toBe(404);
    expect(await api.json()).toHaveProperty("error");
    expect(d1Queries(api)).toBe(0);
    await env.DB.prepare("UPDATE experts SET custom_url = NULL WHERE id = ?").bind(plain.id).run();
  });

  it("hides an expert who deleted their account", async () => {
    const { expert } = await addExpert(categories, {
      first: "Gone",
      last: "Away",
      title: "Former Expert",
      categories: ["legal"],
      questionRate: 700,
      customUrl: "gone-away",
    });
    await env.DB.prepare("UPDATE experts SET deleted_at = 1 WHERE id = ?").bind(expert.id).run();
    await notFound(`/expert/${expert.id}`);
    await notFound("/gone-away");
  });
});
