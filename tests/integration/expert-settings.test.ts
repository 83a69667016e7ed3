import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { expertCategories, experts } from "~/db/schema.server";
import { cacheKeys } from "~/services/cache.server";
import { insertExpert, insertUser, type NewExpert } from "../factories";
import { db, get, insertAccount, postForm, postRaw, signIn } from "./support/accounts";
import { categoriesByName } from "./support/experts";

let category: (name: string) => number;
beforeAll(async () => {
  const byName = await categoriesByName();
  category = (name) => byName.get(name)!.id;
});

async function signedInExpert(expert: Partial<NewExpert> = {}) {
  const password = "expert-pass-1";
  const inserted = await insertExpert(db(), { user: { password }, expert, categoryIds: [category("Sales")] });
  return { ...inserted, cookie: await signIn(inserted.user.username, password) };
}

/** A page's HTML before its data script: what is shown with JavaScript off. */
const markupOf = (html: string) => html.split("__remixContext")[0];

const expertRow = async (id: number) => (await db().select().from(experts).where(eq(experts.id, id)))[0];

/** A valid General Information form; override any field. */
function general(overrides: Record<string, string> = {}) {
  return {
    intent: "general",
    title: "Revenue Coach",
    occupation: "Coach",
    company: "Closers Inc",
    location: "Austin, TX",
    customUrl: "",
    categoryId: String(category("Sales")),
    expertise: "Sales",
    bio: "I help founders run their first sales process.",
    consultingTopics: "Pipelines, pricing calls, first hires in sales",
    qualifications: "",
    socialWebsite: "https://closers.example.com",
    socialLinkedIn: "",
    socialTwitter: "",
    socialInstagram: "",
    ...overrides,
  };
}

describe("profile settings (/expert/settings)", () => {
  it("saves the signed-in expert's general information and categories, and refreshes the public read model", async () => {
    const { expert, cookie } = await signedInExpert({ customUrl: "old-address" });
    await env.CACHE.put(cacheKeys.expertProfile(expert.id), JSON.stringify({ value: { bio: "stale" } }));
    await env.CACHE.put(cacheKeys.expertIdByCustomUrl("old-address"), JSON.stringify({ value: expert.id }));
    const body = new URLSearchParams({
      ...general({ customUrl: "new-address", categoryId: String(category("Legal")) }),
    });
    body.delete("expertise");
    body.append("expertise", "Sales");
    body.append("expertise", "Legal");
    const response = await postRaw("/expert/settings", body, {
      cookie,
      contentType: "application/x-www-form-urlencoded",
    });
    expect(response.status).toBe(200);
    expect(await expertRow(expert.id)).toMatchObject({
      title: "Revenue Coach",
      company: "Closers Inc",
      location: "Austin, TX",
      customUrl: "new-address",
      categoryId: category("Legal"),
      expertise: "Sales, Legal",
      bio: "I help founders run their first sales process.",
      socialWebsite: "https://closers.example.com",
      socialLinkedIn: null,
    });
    const links = await db().select().from(expertCategories).where(eq(expertCategories.expertId, expert.id));
    expect(links.map((link) => link.categoryId).sort()).toEqual(
      [category("Sales"), category("Legal")].sort(),
    );
    // By id and by the old address: the public profile shows the change at once.
    expect(await env.CACHE.get(cacheKeys.expertProfile(expert.id))).toBeNull();
    expect(await env.CACHE.get(cacheKeys.expertIdByCustomUrl("old-address"))).toBeNull();
    // The settings page shows the saved values after a reload.
    expect(await (await get("/expert/settings", cookie)).text()).toContain(
      "I help founders run their first sales process.",
    );
  });

  it("refuses with 403 a form that names another expert's profile, changing neither", async () => {
    const victim = await signedInExpert({ bio: "The victim's untouched bio." });
    const { expert, cookie } = await signedInExpert({ bio: "The attacker's own bio." });
    for (const field of ["expertId", "id"]) {
      for (const fields of [
        general({ bio: "Attempted takeover of another profile." }),
        { intent: "pricing", questionRate: "999", sessionPrice: "999" },
      ]) {
        const response = await postForm(
          "/expert/settings",
          { ...fields, [field]: String(victim.expert.id) },
          { cookie },
        );
        expect(response.status, field).toBe(403);
        expect(await response.text()).toContain("You can only edit your own expert profile");
      }
    }
    expect(await expertRow(victim.expert.id)).toMatchObject({
      bio: "The victim's untouched bio.",
      questionRate: 500,
    });
    expect(await expertRow(expert.id)).toMatchObject({ bio: "The attacker's own bio.", questionRate: 500 });
    // Naming one's own profile is fine; the session decides whose profile it is anyway.
    const own = await postForm(
      "/expert/settings",
      { ...general(), expertId: String(expert.id), userId: String(victim.user.id) },
      { cookie },
    );
    expect(own.status).toBe(200);
    expect((await expertRow(expert.id)).bio).toBe("I help founders run their first sales process.");
    expect((await expertRow(victim.expert.id)).bio).toBe("The victim's untouched bio.");
  });

  const refused: Array<[string, Record<string, string>, string]> = [
    ["a bio one under 10", { bio: "x".repeat(9) }, "Bio must be at least 10 characters"],
    ["a bio one over 500", { bio: "x".repeat(501) }, "Bio must be at most 500 characters"],
    [
      "consulting topics one under 5",
      { consultingTopics: "abcd" },
      "What you consult on must be at least 5 characters",
    ],
    [
      "consulting topics one over 300",
      { consultingTopics: "x".repeat(301) },
      "What you consult on must be at most 300 characters",
    ],
    ["a title one under 3", { title: "ab" }, "Title must be at least 3 characters"],
    ["a custom URL one under 3", { customUrl: "ab" }, "Custom URL must be at least 3 characters"],
    [
      "a custom URL with capitals",
      { customUrl: "Jane-Doe" },
      "URL can only contain lowercase letters, numbers, and hyphens",
    ],
    [
      "a custom URL with an underscore",
      { customUrl: "jane_doe" },
      "URL can only contain lowercase letters, numbers, and hyphens",
    ],
    ["a custom URL that is a route", { customUrl: "experts" }, "This custom URL is reserved"],
    ["a custom URL of digits only", { customUrl: "12345" }, "Custom URL must contain at least one letter"],
    ["no expertise", { expertise: "" }, "Please list at least one area of expertise"],
    ["a javascript: link", { socialWebsite: "javascript:alert(1)" }, "Website must be a valid URL"],
    ["a social link that is not a URL", { socialTwitter: "my handle" }, "Twitter must be a valid URL"],
  ];
  for (const [what, overrides, message] of refused) {
    it(`refuses ${what} with its message and changes nothing`, async () => {
      const { expert, cookie } = await signedInExpert();
      const before = await expertRow(expert.id);
      const response = await postForm("/expert/settings", general(overrides), { cookie });
      expect(response.status).toBe(400);
      // In the page's markup (what a browser without JavaScript shows), not only in its data.
      expect(markupOf(await response.text())).toContain(message.replaceAll("'", "&#x27;"));
      expect(await expertRow(expert.id)).toEqual(before);
    });
  }

  it("accepts each edit rule exactly at its minimum", async () => {
    const { expert, cookie } = await signedInExpert();
    const response = await postForm(
      "/expert/settings",
      general({ bio: "x".repeat(10), consultingTopics: "abcde", title: "abc", customUrl: "abc-edit" }),
      { cookie },
    );
    expect(response.status).toBe(200);
    expect(await expertRow(expert.id)).toMatchObject({
      bio: "x".repeat(10),
      consultingTopics: "abcde",
      title: "abc",
    });
  });

  it("refuses a custom URL another expert has, and keeps one made under the sign-up rule", async () => {
    await signedInExpert({ customUrl: "somebody-else" });
    const { expert, cookie } = await signedInExpert({ customUrl: "signed_up_with_underscore" });
    const taken = await postForm("/expert/settings", general({ customUrl: "Somebody-Else".toLowerCase() }), {
      cookie,
    });
    expect(taken.status).toBe(400);
    expect(await taken.text()).toContain("This custom URL is already taken");
    const kept = await postForm("/expert/settings", general({ customUrl: "signed_up_with_underscore" }), {
      cookie,
    });
    expect(kept.status).toBe(200);
    expect((await expertRow(expert.id)).customUrl).toBe("signed_up_with_underscore");
  });

  it("saves prices in cents with the edit form's minimums ($5.00 and $10.00); abc or 49,99 becomes 0 and is refused", async () => {
    const { expert, cookie } = await signedInExpert();
    const atMinimum = await postForm(
      "/expert/settings",
      { intent: "pricing", questionRate: "5", sessionPrice: "10.00" },
      { cookie },
    );
    expect(atMinimum.status).toBe(200);
    expect(await expertRow(expert.id)).toMatchObject({ questionRate: 500, sessionPrice: 1000 });

    for (const [fields, message] of [
      [{ questionRate: "4.99", sessionPrice: "50" }, "Minimum question rate is $5.00"],
      [{ questionRate: "20", sessionPrice: "9.99" }, "Minimum session price is $10.00"],
      [{ questionRate: "abc", sessionPrice: "50" }, "Minimum question rate is $5.00"],
      [{ questionRate: "20", sessionPrice: "abc" }, "Minimum session price is $10.00"],
      // A decimal comma or thousands separator is not read as a smaller price.
      [{ questionRate: "49,99", sessionPrice: "50" }, "Minimum question rate is $5.00"],
      [{ questionRate: "20", sessionPrice: "10,000" }, "Minimum session price is $10.00"],
    ] as const) {
      const response = await postForm(
        "/expert/settings?tab=pricing",
        { intent: "pricing", ...fields },
        { cookie },
      );
      expect(response.status).toBe(400);
      const markup = markupOf(await response.text());
      expect(markup).toContain(message);
      expect(markup, "what was typed comes back").toContain(`value="${fields.questionRate}"`);
      expect(await expertRow(expert.id)).toMatchObject({ questionRate: 500, sessionPrice: 1000 });
    }
  });

  it("tells an admin without a profile so, and refuses their saves with 403", async () => {
    await insertAccount("lonely-admin", "admin-pass-1", { role: "admin" });
    const cookie = await signIn("lonely-admin", "admin-pass-1");
    const page = await get("/expert/settings", cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("No expert profile found");
    expect(html).toContain("/become-expert");
    const response = await postForm("/expert/settings", general(), { cookie });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("You must be logged in as an expert to update your profile");
  });

  it("sends a client to /forbidden and a signed-out visitor to /expert/login, saving nothing", async () => {
    const client = await insertUser(db(), { password: "client-pass-1" });
    const cookie = await signIn(client.username, "client-pass-1");
    const asClient = await postForm("/expert/settings", general(), { cookie });
    expect(asClient.status).toBe(302);
    expect(asClient.headers.get("Location")).toBe("/forbidden");
    const signedOut = await postForm("/expert/settings", general(), {});
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/expert\/login/);
  });
});
