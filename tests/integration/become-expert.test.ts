import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { expertCategories, experts, users } from "~/db/schema.server";
import { canonicalTimeZone } from "~/lib/slots";
import { cacheKeys } from "~/services/cache.server";
import { insertExpert } from "../factories";
import { db, get, insertAccount, postRaw, sessionCookieFrom, signIn } from "./support/accounts";
import {
  bigPng,
  CUT_PNG_BYTES,
  categoriesByName,
  file,
  HTML_TEXT,
  JPEG_BYTES,
  keyOf,
  multipart,
  PNG_BYTES,
  pngHeader,
  postMultipart,
  SVG_TEXT,
  storedImageKeys,
  uniquePng,
} from "./support/experts";

let categoryId: (name: string) => number;

beforeAll(async () => {
  const byName = await categoriesByName();
  categoryId = (name) => {
    const row = byName.get(name);
    if (!row) throw new Error(`no category ${name}`);
    return row.id;
  };
});

let sequence = 0;
/** A complete, valid wizard submission for a new visitor; override any field. */
function application(overrides: Record<string, string | string[] | File | undefined> = {}) {
  sequence += 1;
  return {
    username: `applicant-${sequence}`,
    password: "secret-pass",
    email: `applicant-${sequence}@example.com`,
    firstName: "Grace",
    lastName: "Hopper",
    title: "Compiler Consultant",
    occupation: "Navy Labs",
    customUrl: `Grace_Hopper-${sequence}`,
    categoryId: String(categoryId("Tech and AI")),
    expertise: ["Tech and AI", "Business Automation"],
    bio: "Forty years of building compilers and teaching teams to automate the boring parts of their work.",
    questionRate: "12.50",
    sessionPrice: "75",
    termsAgreed: "on",
    ...overrides,
  };
}

/** The state of the page's form controls as the server rendered them (attribute text, unescaped). */
async function formState(html: string) {
  const values = new Map<string, string>();
  const texts = new Map<string, string>();
  const selected = new Map<string, string>();
  const checked: string[] = [];
  let select = "";
  let textarea = "";
  await new HTMLRewriter()
    .on("input", {
      element(input) {
        const name = input.getAttribute("name") ?? "";
        const value = input.getAttribute("value");
        if (input.hasAttribute("checked")) checked.push(`${name}=${value ?? "on"}`);
        else if (value !== null && input.getAttribute("type") !== "checkbox") values.set(name, value);
      },
    })
    .on("select", {
      element(element) {
        select = element.getAttribute("name") ?? "";
      },
    })
    .on("option[selected]", {
      element(option) {
        selected.set(select, option.getAttribute("value") ?? "");
      },
    })
    .on("textarea", {
      element(element) {
        textarea = element.getAttribute("name") ?? "";
        texts.set(textarea, "");
      },
      text(chunk) {
        texts.set(textarea, (texts.get(textarea) ?? "") + chunk.text);
      },
    })
    .transform(new Response(html))
    .arrayBuffer();
  return { values, texts, selected, checked };
}

/** The page as a browser without JavaScript shows it: the markup with every script's text taken out. */
const shownOnPage = (html: string) =>
  html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "<script></script>");

const countUsers = async () => (await db().select({ n: sql<number>`count(*)` }).from(users))[0].n;
const countExperts = async () => (await db().select({ n: sql<number>`count(*)` }).from(experts))[0].n;

async function submit(fields: Record<string, string | string[] | File | undefined>, cookie = "") {
  return postMultipart("/become-expert", multipart(fields), cookie);
}

/**
 * Runs `body` while a trigger refuses inserts into experts `when` its SQL condition holds, with
 * `message` (as an outage, or as the unique index, would).
 */
async function whileExpertInsertsFail(when: string, message: string, body: () => Promise<void>) {
  await env.DB.exec(
    `CREATE TRIGGER refuse_expert BEFORE INSERT ON experts WHEN ${when} BEGIN SELECT RAISE(ABORT, '${message}'); END`,
  );
  try {
    await body();
  } finally {
    await env.DB.exec("DROP TRIGGER refuse_expert");
  }
}

describe("the become-an-expert wizard (server side)", () => {
  it("creates the account, signs it in and creates the profile with both images in one submission", async () => {
    const before = await storedImageKeys();
    const fields = application({
      profileImage: file(JPEG_BYTES, "me.jpg", "image/jpeg"),
      headerImage: file(PNG_BYTES, "banner.png", "image/png"),
    });
    await env.CACHE.put(
      cacheKeys.expertIdByCustomUrl(String(fields.customUrl)),
      JSON.stringify({ value: null }),
    );
    const response = await submit(fields);
    expect(response.status).toBe(201);
    const cookie = sessionCookieFrom(response);
    expect(cookie).not.toBeNull();

    const [user] = await db()
      .select()
      .from(users)
      .where(eq(users.username, String(fields.username)));
    expect(user).toMatchObject({
      role: "expert",
      isAdmin: false,
      firstName: "Grace",
      lastName: "Hopper",
      name: "Grace Hopper",
    });
    const [expert] = await db().select().from(experts).where(eq(experts.userId, user.id));
    expect(expert).toMatchObject({
      title: "Compiler Consultant",
      occupation: "Navy Labs",
      company: "Navy Labs",
      // Lower-cased, underscores allowed at sign-up.
      customUrl: `grace_hopper-${sequence}`,
      categoryId: categoryId("Tech and AI"),
      expertise: "Tech and AI, Business Automation",
      questionRate: 1250,
      sessionPrice: 7500,
      isVerified: false,
      isTopExpert: false,
    });
    const links = await db().select().from(expertCategories).where(eq(expertCategories.expertId, expert.id));
    expect(links.map((link) => link.categoryId).sort()).toEqual(
      [categoryId("Tech and AI"), categoryId("Business Automation")].sort(),
    );
    // Both images stored under content-addressed keys, served from /media/images/.
    expect(expert.profileImage).toMatch(/^\/media\/images\/[0-9a-f]{64}\.jpg$/);
    expect(expert.headerImage).toMatch(/^\/media\/images\/[0-9a-f]{64}\.png$/);
    const after = await storedImageKeys();
    expect(after).toEqual(expect.arrayContaining([keyOf(expert.profileImage!), keyOf(expert.headerImage!)]));
    expect(after.length - before.length).toBe(2);
    // A stale "no such address" entry in the read-model cache is gone.
    expect(await env.CACHE.get(cacheKeys.expertIdByCustomUrl(String(fields.customUrl)))).toBeNull();

    // Signed in as an expert: the portal opens.
    expect((await get("/expert/dashboard", cookie!)).status).toBe(200);
  });

  it("stores the time zone the wizard sends (the browser's) as the weekly schedule's zone", async () => {
    const fields = application({ timeZone: " Asia/Kolkata " });
    expect((await submit(fields)).status).toBe(201);
    const [expert] = await db()
      .select({ timeZone: experts.timeZone })
      .from(experts)
      .innerJoin(users, eq(users.id, experts.userId))
      .where(eq(users.username, String(fields.username)));
    // Stored by its canonical name, as Availability stores it (this runtime's ICU may say Asia/Calcutta).
    expect(expert.timeZone).toBe(canonicalTimeZone("Asia/Kolkata"));
  });

  it("marks what the application requires, the terms box and the group of expertise chips too", async () => {
    const page = shownOnPage(await (await get("/become-expert")).text());
    expect(page).toMatch(/<input type="checkbox" name="termsAgreed" required=""/);
    // Starred as the other required fields are (the star is not read out: the box says "required").
    expect(page).toMatch(/<span class="label--required">I agree to the/);
    // A group cannot carry `required`: its legend is starred and its hint says what it needs.
    expect(page).toMatch(/<legend class="label label--required">Areas of Expertise<\/legend>/);
    expect(page.replaceAll("<!-- -->", "")).toContain("Choose 1 to 3 (0 of 3 chosen).");
  });

  it("starts the schedule in UTC when no zone (no JavaScript) or an unknown one is sent, and says so", async () => {
    const page = await (await get("/become-expert")).text();
    expect(shownOnPage(page)).toContain("UTC (your time zone can&#x27;t be detected without JavaScript)");
    for (const timeZone of [undefined, "", "Mars/Olympus_Mons", "+05:30", "America/New_York; drop"]) {
      const fields = application({ timeZone });
      expect((await submit(fields)).status, String(timeZone)).toBe(201);
      const [expert] = await db()
        .select({ timeZone: experts.timeZone })
        .from(experts)
        .innerJoin(users, eq(users.id, experts.userId))
        .where(eq(users.username, String(fields.username)));
      // Not the column's America/New_York default: nothing said the expert is there.
      expect(expert.timeZone, String(timeZone)).toBe("UTC");
    }
  });

  it("never takes a role or admin flag from the form", async () => {
    const fields = application({
      role: "admin",
      isAdmin: "true",
      isVerified: "on",
      isTopExpert: "on",
      userId: "1",
    });
    const response = await submit(fields);
    expect(response.status).toBe(201);
    const [user] = await db()
      .select()
      .from(users)
      .where(eq(users.username, String(fields.username)));
    expect(user).toMatchObject({ role: "expert", isAdmin: false });
    const [expert] = await db().select().from(experts).where(eq(experts.userId, user.id));
    expect(expert).toMatchObject({ isVerified: false, isTopExpert: false });
  });

  const refused: Array<[string, Record<string, string | string[] | undefined>, string]> = [
    ["username one under the minimum", { username: "ab" }, "Username must be at least 3 characters"],
    ["password one under the minimum", { password: "12345" }, "Password must be at least 6 characters"],
    ["an invalid email", { email: "not-an-email" }, "Please provide a valid email address"],
    ["a missing first name", { firstName: "" }, "First name is required"],
    ["a missing last name", { lastName: "" }, "Last name is required"],
    ["a bio one under 50", { bio: "x".repeat(49) }, "Bio must be at least 50 characters"],
    ["a title one under 3", { title: "ab" }, "Professional title is required"],
    ["an occupation one under 3", { occupation: "ab" }, "Company/Organization must be at least 3 characters"],
    ["a custom URL one under 3", { customUrl: "ab" }, "Custom URL must be at least 3 characters"],
    [
      "a custom URL with a dot",
      { customUrl: "grace.hopper" },
      "URL can only contain letters, numbers, underscores, and hyphens",
    ],
    ["no category", { categoryId: "" }, "Please select a category"],
    ["an unknown category", { categoryId: "99999" }, "Please select a category"],
    ["no expertise", { expertise: [] }, "Please list at least one area of expertise"],
    [
      "four expertise areas",
      { expertise: ["Sales", "Legal", "E-commerce", "Tech and AI"] },
      "You can select up to 3 categories",
    ],
    [
      "an expertise that is not a category",
      { expertise: ["Underwater Basket Weaving"] },
      "Please choose categories from the list",
    ],
    ["a question rate one cent under $5", { questionRate: "4.99" }, "Question rate must be at least $5"],
    ["a session price one cent under $30", { sessionPrice: "29.99" }, "Session price must be at least $30"],
    ["a question rate of abc (becomes 0)", { questionRate: "abc" }, "Question rate must be at least $5"],
    ["a session price of abc (becomes 0)", { sessionPrice: "abc" }, "Session price must be at least $30"],
    ["the terms not agreed", { termsAgreed: undefined }, "You must agree to the terms and conditions"],
  ];
  for (const [what, overrides, message] of refused) {
    it(`refuses ${what} with SPEC.md's message and creates nothing`, async () => {
      const [users0, experts0] = [await countUsers(), await countExperts()];
      const response = await submit(application(overrides));
      expect(response.status).toBe(400);
      expect(shownOnPage(await response.text())).toContain(`<li>${message}</li>`);
      expect(await countUsers()).toBe(users0);
      expect(await countExperts()).toBe(experts0);
    });
  }

  it("accepts every rule exactly at its minimum", async () => {
    const response = await submit(
      application({
        username: "abc",
        password: "123456",
        bio: "x".repeat(50),
        title: "abc",
        occupation: "abc",
        customUrl: "abc",
        expertise: ["Sales"],
        questionRate: "5",
        sessionPrice: "30",
      }),
    );
    expect(response.status).toBe(201);
    const [expert] = await db().select().from(experts).where(eq(experts.customUrl, "abc"));
    expect(expert).toMatchObject({ questionRate: 500, sessionPrice: 3000, expertise: "Sales" });
  });

  it("refuses a custom URL that is a route of the site", async () => {
    for (const word of ["about", "admin", "experts", "expert", "api", "become-expert", "Dashboard"]) {
      const users0 = await countUsers();
      const response = await submit(application({ customUrl: word }));
      expect(response.status, word).toBe(400);
      expect(await response.text(), word).toContain("This custom URL is reserved");
      expect(await countUsers(), word).toBe(users0);
    }
  });

  it("refuses a custom URL another expert already has (whatever its case), creating no account", async () => {
    await insertExpert(db(), { expert: { customUrl: "taken-url" } });
    const users0 = await countUsers();
    const response = await submit(application({ customUrl: "Taken-URL" }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("This custom URL is already taken");
    expect(await countUsers()).toBe(users0);
  });

  it("refuses a username that exists, creating nothing", async () => {
    await insertAccount("existing-person", "password-1");
    const experts0 = await countExperts();
    const response = await submit(application({ username: "Existing-Person" }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("That username is already taken");
    expect(await countExperts()).toBe(experts0);
  });

  it("says at once that both the custom URL and the username are taken", async () => {
    await insertExpert(db(), { expert: { customUrl: "taken-both" } });
    await insertAccount("taken-person", "password-1");
    const users0 = await countUsers();
    const response = await submit(application({ customUrl: "taken-both", username: "Taken-Person" }));
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("This custom URL is already taken");
    expect(html).toContain("That username is already taken");
    expect(await countUsers()).toBe(users0);
  });

  it("cuts an over-long field it sends back without splitting an emoji", async () => {
    // The echo keeps 5,000 UTF-16 units; the 5,000th here is the first half of 🚀.
    const response = await submit(application({ bio: `${"a".repeat(4999)}🚀${"b".repeat(50)}` }));
    expect(response.status).toBe(400);
    const html = await response.text();
    expect((await formState(html)).texts.get("bio")).toBe("a".repeat(4999));
    expect(html).not.toContain("\uFFFD");
  });

  it("renders a refused application again with what was sent, never the password", async () => {
    const users0 = await countUsers();
    const response = await submit(
      application({
        password: "never-echo-this-9",
        firstName: "Ada <b>",
        customUrl: "ada-refill",
        bio: "Too short to pass.",
        questionRate: "7.25",
      }),
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    // Shown beside its field, not only in the data the page's scripts read.
    expect(shownOnPage(html)).toMatch(
      /name="bio"[^>]*aria-invalid="true"[^>]*>Too short to pass\.<\/textarea>.*?class="error-list"[^>]*><li>Bio must be at least 50 characters<\/li>/,
    );
    expect(html).not.toContain("never-echo-this-9");
    const form = await formState(html);
    expect(form.values.get("firstName")).toBe("Ada &lt;b&gt;");
    expect(form.values.get("lastName")).toBe("Hopper");
    expect(form.values.get("customUrl")).toBe("ada-refill");
    expect(form.values.get("questionRate")).toBe("7.25");
    expect(form.values.get("password")).toBeUndefined();
    expect(form.texts.get("bio")).toBe("Too short to pass.");
    expect(form.selected.get("categoryId")).toBe(String(categoryId("Tech and AI")));
    expect(form.checked.sort()).toEqual([
      "expertise=Business Automation",
      "expertise=Tech and AI",
      "termsAgreed=on",
    ]);
    expect(await countUsers()).toBe(users0);
  });

  it("lets a signed-in client skip the account step and become an expert", async () => {
    const { userId } = await insertAccount("client-to-expert", "client-pass");
    const cookie = await signIn("client-to-expert", "client-pass");
    const page = await get("/become-expert", cookie);
    const html = await page.text();
    expect(html).toContain("Signed in as");
    // It says it was filled in signed in, so a session that ends before it is sent is noticed.
    expect(html).toMatch(/<input type="hidden" name="asSignedIn" value="1"/);
    // The browser stops a title or organisation at the server's limit as it is typed.
    for (const field of ["title", "occupation"]) {
      expect(html, field).toMatch(new RegExp(`name="${field}"[^>]*maxLength="100"`, "i"));
    }

    const { username, password, email, firstName, lastName, ...profileOnly } = application();
    const response = await submit(profileOnly, cookie);
    expect(response.status).toBe(201);
    const [user] = await db().select().from(users).where(eq(users.id, userId));
    expect(user.role).toBe("expert");
    expect(await db().select().from(experts).where(eq(experts.userId, userId))).toHaveLength(1);
    // No second account was made from the (absent) account fields.
    expect(
      await db()
        .select()
        .from(users)
        .where(eq(users.username, String(username))),
    ).toHaveLength(0);
    expect((await get("/expert/dashboard", cookie)).status).toBe(200);
  });

  it("says the session ended when a wizard filled in signed in arrives without one, creating nothing", async () => {
    const users0 = await countUsers();
    const experts0 = await countExperts();
    const { username, password, email, firstName, lastName, ...profileOnly } = application();
    // The signed-in wizard's fields, sent after a logout in another tab (no session cookie).
    const response = await submit({ ...profileOnly, asSignedIn: "1" });
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(html).toContain("Your session has ended, so your profile was not created.");
    expect(html).toContain("Sign in (opens a new tab)");
    expect(await countUsers()).toBe(users0);
    expect(await countExperts()).toBe(experts0);
  });

  it("keeps an admin's role when the admin creates a profile", async () => {
    const { userId } = await insertAccount("admin-expert", "admin-pass", { role: "admin" });
    const cookie = await signIn("admin-expert", "admin-pass");
    const { username, password, email, firstName, lastName, ...profileOnly } = application();
    const response = await submit(profileOnly, cookie);
    expect(response.status).toBe(201);
    const [user] = await db().select().from(users).where(eq(users.id, userId));
    expect(user).toMatchObject({ role: "admin", isAdmin: true });
    expect(await db().select().from(experts).where(eq(experts.userId, userId))).toHaveLength(1);
  });

  it("tells someone who is already an expert so, and changes nothing", async () => {
    await insertAccount("already-expert", "expert-pass", { role: "expert" });
    const cookie = await signIn("already-expert", "expert-pass");
    const page = await get("/become-expert", cookie);
    expect(await page.text()).toContain("You&#x27;re already an expert");
    const experts0 = await countExperts();
    const response = await submit(application(), cookie);
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("already");
    expect(await countExperts()).toBe(experts0);
  });

  it("creates the profile but reports each refused image: 6 MB, too many pixels, cut short, HTML named .png, SVG", async () => {
    const cases: Array<[string, File, File]> = [
      ["too large", bigPng(6 * 1024 * 1024), uniquePng("ok.png")],
      ["too many pixels", file(pngHeader(20000, 20000), "bomb.png", "image/png"), uniquePng("ok.png")],
      ["cut short", file(CUT_PNG_BYTES, "cut.png", "image/png"), uniquePng("ok.png")],
      [
        "HTML named .png",
        file(HTML_TEXT, "avatar.png", "image/png"),
        file(SVG_TEXT, "header.svg", "image/svg+xml"),
      ],
    ];
    for (const [what, profileImage, headerImage] of cases) {
      const before = await storedImageKeys();
      const fields = application({ profileImage, headerImage });
      const response = await submit(fields);
      expect(response.status, what).toBe(201);
      const html = await response.text();
      expect(html, what).toContain("Profile Image Upload Failed");
      const [user] = await db()
        .select()
        .from(users)
        .where(eq(users.username, String(fields.username)));
      const [expert] = await db().select().from(experts).where(eq(experts.userId, user.id));
      expect(expert.profileImage, what).toBeNull();
      if (what !== "HTML named .png") {
        const reasons: Record<string, string> = {
          "too large": "The file is too large (at most 5 MB).",
          "too many pixels":
            "The image has too many pixels (at most 8192 on a side and 24 megapixels). Please choose a smaller picture.",
          "cut short":
            "The image file is incomplete or damaged. Please choose it again, or choose another picture.",
        };
        expect(html, what).toContain(reasons[what]);
        // The good header went through.
        expect(expert.headerImage).toMatch(/^\/media\/images\/.+\.png$/);
        expect((await storedImageKeys()).length - before.length).toBe(1);
      } else {
        expect(html).toContain("Header Image Upload Failed");
        expect(html).toContain("Please choose a JPEG, PNG, WebP or GIF image.");
        expect(expert.headerImage).toBeNull();
        expect(await storedImageKeys()).toEqual(before);
      }
    }
  });

  it("refuses a body too large for two images before reading it, creating nothing", async () => {
    const users0 = await countUsers();
    const response = await submit(
      application({ profileImage: bigPng(6 * 1024 * 1024), headerImage: bigPng(6 * 1024 * 1024) }),
    );
    expect(response.status).toBe(413);
    expect(await response.text()).toContain("The file is too large");
    expect(await countUsers()).toBe(users0);
  });

  it("keeps the account, signed in, when the profile cannot be created (partial success)", async () => {
    // Make the profile insert fail after the account exists, as an outage would.
    await whileExpertInsertsFail("NEW.title = 'Doomed Title'", "simulated outage", async () => {
      const fields = application({
        title: "Doomed Title",
        profileImage: file(JPEG_BYTES, "me.jpg", "image/jpeg"),
      });
      const response = await submit(fields);
      expect(response.status).toBe(500);
      expect(await response.text()).toContain("Partial Success");
      const cookie = sessionCookieFrom(response);
      expect(cookie).not.toBeNull();
      const [user] = await db()
        .select()
        .from(users)
        .where(eq(users.username, String(fields.username)));
      expect(user.role).toBe("user");
      expect(await db().select().from(experts).where(eq(experts.userId, user.id))).toHaveLength(0);
      // Signed in with the new account; and may try again from the wizard.
      const page = await get("/become-expert", cookie!);
      expect(await page.text()).toContain("Signed in as");
    });
  });

  it("keeps a signed-in applicant's form, saying nothing was created, when the profile cannot be", async () => {
    const { userId } = await insertAccount("outage-applicant", "client-pass");
    const cookie = await signIn("outage-applicant", "client-pass");
    const users0 = await countUsers();
    await whileExpertInsertsFail("NEW.title = 'Doomed Title'", "simulated outage", async () => {
      const { username, password, email, firstName, lastName, ...profileOnly } = application({
        title: "Doomed Title",
      });
      const response = await submit(profileOnly, cookie);
      expect(response.status).toBe(500);
      const html = await response.text();
      // SPEC.md's submit failure, not the new account's "Partial Success": this account existed.
      expect(html).toContain("Failed to create expert profile. Please try again.");
      expect(html).not.toContain("Partial Success");
      expect(html).not.toContain("Your account was created");
      // What was typed comes back, to send again.
      const form = await formState(html);
      expect(form.values.get("title")).toBe("Doomed Title");
      expect(form.texts.get("bio")).toBe(String(profileOnly.bio));
      const [user] = await db().select().from(users).where(eq(users.id, userId));
      expect(user.role).toBe("user");
      expect(await db().select().from(experts).where(eq(experts.userId, userId))).toHaveLength(0);
      expect(await countUsers()).toBe(users0);
    });
  });

  it("asks a signed-in applicant for another custom URL when it is taken between the check and the save", async () => {
    // Another applicant's profile takes the URL after this one's check: the insert meets the unique index.
    await whileExpertInsertsFail(
      "NEW.custom_url = 'raced-url'",
      "UNIQUE constraint failed: experts.custom_url",
      async () => {
        const { userId } = await insertAccount("raced-applicant", "client-pass");
        const cookie = await signIn("raced-applicant", "client-pass");
        const { username, password, email, firstName, lastName, ...profileOnly } = application({
          customUrl: "raced-url",
        });
        const response = await submit(profileOnly, cookie);
        expect(response.status).toBe(409);
        const html = await response.text();
        expect(html).toContain("This custom URL is already taken");
        expect(html).not.toContain("Partial Success");
        expect((await formState(html)).values.get("customUrl")).toBe("raced-url");
        expect(await db().select().from(experts).where(eq(experts.userId, userId))).toHaveLength(0);
        // Sent again with another URL, the profile is made.
        const again = await submit({ ...profileOnly, customUrl: "won-url" }, cookie);
        expect(again.status).toBe(201);
        const [expert] = await db().select().from(experts).where(eq(experts.userId, userId));
        expect(expert.customUrl).toBe("won-url");

        // A new visitor meets the same race after their account was made: SPEC.md's partial
        // success, signed in, to try again from the wizard.
        const visitor = await submit(application({ customUrl: "raced-url" }));
        expect(visitor.status).toBe(500);
        expect(await visitor.text()).toContain("Partial Success");
        expect(sessionCookieFrom(visitor)).not.toBeNull();
      },
    );
  });

  it("answers 400, never 500, to a body that is not a form", async () => {
    const response = await postRaw("/become-expert", JSON.stringify({ username: "x" }), {
      contentType: "application/json",
    });
    expect(response.status).toBe(400);
    expect(await countUsers()).toBeGreaterThan(0);
  });
});
