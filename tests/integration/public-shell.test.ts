import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { contactMessages, newsletterSignups } from "~/db/schema.server";
import { db, get, postForm, postRaw } from "./support/accounts";

const NOT_FOUND_TITLE = "404 Page Not Found";
const NOT_FOUND_TEXT = "Did you forget to add the page to the router?";

const countContactMessages = async () => {
  const [row] = await db().select({ count: sql<number>`count(*)` }).from(contactMessages);
  return row.count;
};

const newsletterRows = () =>
  db().select({ email: newsletterSignups.email }).from(newsletterSignups).orderBy(newsletterSignups.id);

const GARBAGE_BODIES: Array<[string, BodyInit | null, string | undefined]> = [
  [
    "a JSON body",
    JSON.stringify({ name: "x", email: "a@b.co", subject: "s", message: "m" }),
    "application/json",
  ],
  ["an empty body", null, undefined],
  ["plain text", "name=Ann&email=ann@example.com", "text/plain"],
  ["a broken multipart body", "--nope\r\ngarbage", "multipart/form-data; boundary=missing"],
  ["an empty form", "", "application/x-www-form-urlencoded"],
];

/** The `name=value` of the flash cookie a response sets. */
function toastCookieFrom(response: Response) {
  const header = response.headers.getSetCookie().find((value) => value.startsWith("__toast="));
  return header?.split(";")[0] ?? null;
}

// Storage is shared by the tests of one file: start each from empty tables.
beforeEach(async () => {
  await db().delete(contactMessages);
  await db().delete(newsletterSignups);
});

describe("the not-found screen", () => {
  for (const path of ["/no-such-page", "/a/b/c", "/about/extra", "/contact/us/now"]) {
    it(`answers ${path} with 404 and SPEC.md's texts`, async () => {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html).toContain(NOT_FOUND_TITLE);
      expect(html).toContain(NOT_FOUND_TEXT);
      expect(html).toMatch(/<title>404 Page Not Found[^<]*<\/title>/);
    });
  }

  it("answers a POST to an unknown path with 404, not 405 or 500", async () => {
    const response = await postForm("/no-such-page", { a: "b" });
    expect(response.status).toBe(404);
  });
});

describe("the static pages", () => {
  const PAGES: Array<[string, number, string, string[]]> = [
    ["/about", 200, "About Expert Answers", ["Accessibility", "Quality", "Respect", "Innovation", "Impact"]],
    ["/privacy-policy", 200, "Privacy Policy", ["Last updated April 22, 2025"]],
    [
      "/terms-of-service",
      200,
      "Terms of Service",
      ["Last updated April 22, 2025", "at least 16 years old", "US dollars", "licensed professional"],
    ],
    ["/contact", 200, "Contact Us", ["support@expertanswers.example", "24-48 hours on business days"]],
    ["/cancel", 200, "Payment Canceled", ["Your payment was not completed", "Return to Home"]],
    ["/forbidden", 403, "Access Denied", ["You don&#x27;t have permission to access this page"]],
    ["/thank-you", 200, "Question Submitted!", ["within 24 hours", "Return to Home"]],
    ["/thank-you?subscription=true", 200, "Subscription Activated!", ["one new question per day"]],
    ["/confirmation", 200, "Question Submitted!", ["Return to Home"]],
    ["/success", 200, "Question Submitted!", ["Return to Home"]],
    ["/newsletter", 200, "Subscribe to our newsletter", []],
  ];

  for (const [path, status, heading, texts] of PAGES) {
    it(`${path} answers ${status} with its heading, title and description`, async () => {
      const response = await get(path);
      expect(response.status).toBe(status);
      const html = await response.text();
      expect(html).toMatch(new RegExp(`<h1[^>]*>${heading.replace(/[!?]/g, "\\$&")}</h1>`));
      for (const text of texts) expect(html).toContain(text);
      expect(html).toMatch(/<title>[^<]+<\/title>/);
      expect(html).toMatch(/<meta name="description" content="[^"]{20,}"/);
      expect(html).toContain('<html lang="en"');
      expect(html).toContain('href="#main-content"');
    });
  }

  it("gives each screen its own title", async () => {
    const titles = new Set<string>();
    const paths = [
      "/",
      "/about",
      "/privacy-policy",
      "/terms-of-service",
      "/contact",
      "/cancel",
      "/forbidden",
    ];
    for (const path of [...paths, "/thank-you", "/thank-you?subscription=true", "/newsletter", "/nope"]) {
      const html = await (await get(path)).text();
      titles.add(html.match(/<title>([^<]*)<\/title>/)?.[1] ?? "");
    }
    expect(titles.size).toBe(paths.length + 4);
  });
});

describe("the contact form", () => {
  const valid = {
    name: "Ada Lovelace",
    email: "ada@example.com",
    subject: "Sessions",
    message: "Can I book two sessions back to back?",
  };

  it("stores a valid message and answers with the Message Sent toast", async () => {
    const response = await postForm("/contact", { ...valid, email: "  ada@example.com " });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Message Sent");
    expect(html).toContain("Thank you for reaching out. We&#x27;ll respond to your inquiry soon.");
    const rows = await db().select().from(contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ...valid, userId: null, handledAt: null });
  });

  it("refuses missing and invalid fields with 400 and the messages, storing nothing", async () => {
    const response = await postForm("/contact", {
      name: " ",
      email: "not-an-email",
      subject: "",
      message: "",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    for (const message of [
      "Name is required",
      "Please enter a valid email address",
      "Subject is required",
      "Message is required",
    ]) {
      expect(html).toContain(message);
    }
    expect(html).toContain('aria-invalid="true"');
    expect(await countContactMessages()).toBe(0);
  });

  it("refuses fields over their length limits", async () => {
    const response = await postForm("/contact", {
      ...valid,
      name: "x".repeat(201),
      message: "y".repeat(5001),
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Name must be at most 200 characters");
    expect(html).toContain("Message must be at most 5000 characters");
    expect(await countContactMessages()).toBe(0);
  });

  for (const [label, body, type] of GARBAGE_BODIES) {
    it(`answers ${label} with 400, not 500, and stores nothing`, async () => {
      const response = await postRaw("/contact", body, { contentType: type });
      expect(response.status).toBe(400);
      expect((await response.text()).length).toBeGreaterThan(0);
      expect(await countContactMessages()).toBe(0);
    });
  }

  it("answers a garbage single-fetch (.data) request with 400", async () => {
    const response = await postRaw("/contact.data", "{}", { contentType: "application/json" });
    expect(response.status).toBe(400);
    expect(await countContactMessages()).toBe(0);
  });
});

describe("the newsletter", () => {
  it("stores an address once, whatever its letter case", async () => {
    const first = await postForm("/newsletter", { email: "Reader@Example.com", redirectTo: "/about" });
    expect(first.status).toBe(303);
    expect(first.headers.get("Location")).toBe("/about");
    expect(toastCookieFrom(first)).not.toBeNull();

    const again = await postForm("/newsletter", { email: "  READER@example.COM ", redirectTo: "/about" });
    expect(again.status).toBe(303);
    expect(await newsletterRows()).toEqual([{ email: "reader@example.com" }]);

    // The flash of the second post says so, once: reading it clears the cookie.
    const page = await get("/about", toastCookieFrom(again)!);
    const html = await page.text();
    expect(html).toContain("Already subscribed");
    expect(html).toContain("You&#x27;re already subscribed to our newsletter.");
    expect(page.headers.getSetCookie().some((value) => /^__toast=;.*Max-Age=0/.test(value))).toBe(true);
  });

  it("answers a fetcher inline, with the outcome", async () => {
    const first = await postForm("/newsletter.data", { email: "inline@example.com", mode: "fetch" });
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("subscribed");
    const again = await postForm("/newsletter.data", { email: "INLINE@example.com", mode: "fetch" });
    expect(await again.text()).toContain("already_subscribed");
    expect(await newsletterRows()).toEqual([{ email: "inline@example.com" }]);
  });

  it("refuses an invalid address with 400 and the message, storing nothing", async () => {
    for (const email of ["", "nope", "a@", `${"x".repeat(250)}@example.com`]) {
      const response = await postForm("/newsletter", { email, redirectTo: "/" });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("Please enter a valid email address");
    }
    expect(await newsletterRows()).toEqual([]);
  });

  it("never redirects off the site", async () => {
    for (const redirectTo of ["//evil.example", "https://evil.example/", "/\\evil.example"]) {
      const response = await postForm("/newsletter", { email: "safe@example.com", redirectTo });
      expect(response.headers.get("Location")).toBe("/");
    }
  });

  for (const [label, body, type] of GARBAGE_BODIES) {
    it(`answers ${label} with 400, not 500, and stores nothing`, async () => {
      const response = await postRaw("/newsletter", body, { contentType: type });
      expect(response.status).toBe(400);
      expect(await newsletterRows()).toEqual([]);
    });
  }
});

describe("flash toasts", () => {
  it("ignores a malformed flash cookie and clears it", async () => {
    for (const cookie of ["__toast=garbage!!", "__toast=eyJ4IjoxfQ%3D%3D", "__toast=%%%"]) {
      const response = await get("/about", cookie);
      expect(response.status).toBe(200);
      expect(await response.text()).not.toContain("flash-banner");
      expect(response.headers.getSetCookie().some((value) => value.startsWith("__toast=;"))).toBe(true);
    }
  });

  it("sets no cookie when there is no flash", async () => {
    const response = await get("/about");
    expect(response.headers.getSetCookie().filter((value) => value.startsWith("__toast="))).toEqual([]);
  });
});
