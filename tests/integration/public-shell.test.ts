import { SELF } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { contactMessages, newsletterSignups, notifications } from "~/db/schema.server";
import { notify } from "~/models/notifications.server";
import { BASE, db, get, postForm, postRaw } from "./support/accounts";
import { newClient } from "./support/questions";

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

  it("takes only GET, HEAD and POST on pages and their forms: a DELETE or PUT runs no action", async () => {
    const client = await newClient();
    await notify(db(), {
      userId: client.userId,
      kind: "question_answered",
      title: "Your question was answered",
      body: "Read it on your dashboard.",
      dedupeKey: `method-check:${client.userId}`,
    });
    for (const [method, path, allow] of [
      ["DELETE", "/notifications", "GET, HEAD, POST"],
      ["PUT", "/notifications", "GET, HEAD, POST"],
      ["PATCH", "/bookings/1/cancel", "GET, HEAD, POST"],
      ["DELETE", "/about", "GET, HEAD"],
    ]) {
      const response = await SELF.fetch(`${BASE}${path}`, {
        method,
        headers: {
          Origin: BASE,
          Cookie: client.cookie,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: "intent=read-all",
      });
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get("Allow"), `${method} ${path}`).toBe(allow);
    }
    const rows = await db().select().from(notifications).where(eq(notifications.userId, client.userId));
    expect(rows.map((row) => row.readAt)).toEqual([null]);
  });

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

  it("refuses Remix's old ?_data= requests before the action runs (the app uses single fetch)", async () => {
    const legacy = await postForm("/contact?_data=routes%2Fcontact", valid);
    expect(legacy.status).toBe(400);
    expect(await legacy.json()).toEqual({ error: "Requests with ?_data= are not supported." });
    expect(await countContactMessages()).toBe(0);
    const read = await get("/experts?_data=routes%2Fexperts._index");
    expect(read.status).toBe(400);
    await read.body?.cancel();
  });

  it("counts invisible characters as nothing: zero-width spaces are not a name or a message", async () => {
    const invisible = "\u200b\u200d\u2060\ufeff\u0000";
    const response = await postForm("/contact", {
      ...valid,
      name: invisible,
      subject: invisible,
      message: invisible,
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    for (const message of ["Name is required", "Subject is required", "Message is required"]) {
      expect(html).toContain(message);
    }
    expect(await countContactMessages()).toBe(0);
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

  it("counts a line break as one character, as the browser's counter did (it sends CRLF)", async () => {
    // 5000 characters in the text box: ten paragraphs, nine breaks. Sent as the browser sends it.
    const message = Array.from({ length: 10 }, (_, index) =>
      String(index).repeat(index === 9 ? 500 : 499),
    ).join("\n");
    const multipart = (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      return form;
    };
    expect(message.length).toBe(5000);
    for (const encoding of ["urlencoded", "multipart"] as const) {
      await db().delete(contactMessages);
      const fields = { ...valid, message: message.replaceAll("\n", "\r\n") };
      const response =
        encoding === "urlencoded"
          ? await postForm("/contact", fields)
          : await postRaw("/contact", multipart(fields));
      expect(response.status, encoding).toBe(200);
      const [row] = await db().select().from(contactMessages);
      expect(row.message, encoding).toBe(message);
    }
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

  it("takes five messages an hour from one address, then refuses with 429, storing nothing more", async () => {
    const from = (address: string) => ({ headers: { "CF-Connecting-IP": address } });
    const sent = await Promise.all(
      Array.from({ length: 7 }, () => postForm("/contact", valid, from("203.0.113.7"))),
    );
    expect(sent.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const refused = sent.find((response) => response.status === 429)!;
    expect(await refused.text()).toContain(
      "Too many requests from your network. Please try again in an hour.",
    );
    expect(await countContactMessages()).toBe(5);
    // Another address is not held back.
    expect((await postForm("/contact", valid, from("203.0.113.8"))).status).toBe(200);
  });

  it("counts an IPv6 client by its /64, so a new address for each message does not get round the limit", async () => {
    const from = (address: string) => ({ headers: { "CF-Connecting-IP": address } });
    const statuses: number[] = [];
    for (let host = 1; host <= 7; host++) {
      statuses.push((await postForm("/contact", valid, from(`2001:db8:1:2::${host}`))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(await countContactMessages()).toBe(5);
    expect((await postForm("/contact", valid, from("2001:db8:1:3::1"))).status).toBe(200);
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

    // The second post is answered as the first: whether an address is on the list is not told.
    const page = await get("/about", toastCookieFrom(again)!);
    const html = await page.text();
    expect(html).toContain("Subscribed");
    expect(html).toContain("Thanks for subscribing! Watch your inbox for expert tips and news.");
    expect(page.headers.getSetCookie().some((value) => /^__toast=;.*Max-Age=0/.test(value))).toBe(true);
  });

  it("answers a fetcher inline, the same whether or not the address was on the list", async () => {
    const first = await postForm("/newsletter.data", { email: "inline@example.com", mode: "fetch" });
    expect(first.status).toBe(200);
    const again = await postForm("/newsletter.data", { email: "INLINE@example.com", mode: "fetch" });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(await first.text());
    expect(await newsletterRows()).toEqual([{ email: "inline@example.com" }]);
  });

  it("unsubscribes an address, in any letter case, with one answer whether or not it was there", async () => {
    await postForm("/newsletter", { email: "leaver@example.com", redirectTo: "/" });
    const gone = await postForm("/newsletter", { intent: "unsubscribe", email: "LEAVER@example.com" });
    expect(gone.status).toBe(200);
    const html = await gone.text();
    expect(html).toContain("That address will get no more newsletters from us.");
    expect(await newsletterRows()).not.toContainEqual({ email: "leaver@example.com" });
    const never = await postForm("/newsletter", { intent: "unsubscribe", email: "never@example.com" });
    expect(never.status).toBe(200);
    expect(await never.text()).toContain("That address will get no more newsletters from us.");
    const invalid = await postForm("/newsletter", { intent: "unsubscribe", email: "nope" });
    expect(invalid.status).toBe(400);
    const page = await invalid.text();
    expect(page).toContain("Please enter a valid email address");
    // Without JavaScript the box comes back with what was typed, to correct it.
    expect(page.split("__remixContext")[0]).toMatch(/name="email"[^>]*value="nope"/);
  });

  it("takes ten posts an hour from one address, then refuses with 429", async () => {
    const from = { headers: { "CF-Connecting-IP": "198.51.100.9" } };
    const statuses: number[] = [];
    for (let n = 0; n < 11; n++) {
      const response = await postForm(
        "/newsletter.data",
        { email: `flood-${n}@example.com`, mode: "fetch" },
        from,
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    expect(await newsletterRows()).not.toContainEqual({ email: "flood-10@example.com" });
  });

  it("refuses an invalid address with 400 and the message, storing nothing", async () => {
    for (const email of ["", "nope", "a@", `${"x".repeat(250)}@example.com`]) {
      const response = await postForm("/newsletter", { email, redirectTo: "/" });
      expect(response.status).toBe(400);
      const page = await response.text();
      expect(page).toContain("Please enter a valid email address");
      // (cut to the 254 characters an address can have)
      if (email) expect(page.split("__remixContext")[0], email).toContain(`value="${email.slice(0, 254)}"`);
    }
    expect(await newsletterRows()).toEqual([]);
  });

  it("sends back an over-long address cut without splitting an emoji", async () => {
    // 254 UTF-16 units end inside the 😀.
    const response = await postForm("/newsletter", {
      email: `${"x".repeat(253)}😀@example.com`,
      redirectTo: "/",
    });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page.split("__remixContext")[0]).toContain(`value="${"x".repeat(253)}"`);
    expect(page).not.toContain("\uFFFD");
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
