/**
 * Every body the app reads has a ceiling that holds when no length is declared: a chunked body is cut
 * off once it passes the limit, answered 413, and never buffered whole (a Worker has 128 MB).
 */
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { availability, reviews } from "~/db/schema.server";
import { insertQuestion } from "../factories";
import { BASE, db, postForm, postRaw } from "./support/accounts";
import { newClient, newExpert } from "./support/questions";
import { postUndeclaredBody } from "./support/undeclared-body";

const MULTIPART = "multipart/form-data; boundary=----x";
const countUsers = async () =>
  (await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>())?.n ?? 0;

describe("bodies of undeclared length", () => {
  it("cuts off an expert application (signed out) past two images' worth, creating nothing", async () => {
    const before = await countUsers();
    const { response, pulled } = await postUndeclaredBody("/become-expert", {
      contentType: MULTIPART,
      chunks: 40,
    });
    expect(response.status).toBe(413);
    expect(await response.text()).toContain("The file is too large (at most 10 MB).");
    expect(pulled.chunks).toBeLessThan(40);
    expect(await countUsers()).toBe(before);
  });

  it("cuts off an image upload from the portal's settings page", async () => {
    const expert = await newExpert("chunked-settings");
    const { response, pulled } = await postUndeclaredBody("/expert/settings", {
      contentType: MULTIPART,
      cookie: expert.cookie,
      chunks: 40,
    });
    expect(response.status).toBe(413);
    expect(await response.text()).toContain("The file is too large (at most 5 MB).");
    expect(pulled.chunks).toBeLessThan(40);
  });

  it("cuts off an image upload through the API", async () => {
    const expert = await newExpert("chunked-api");
    const { response, pulled } = await postUndeclaredBody(`/api/experts/${expert.expertId}/upload/profile`, {
      contentType: MULTIPART,
      cookie: expert.cookie,
      chunks: 40,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ reason: "The file is too large (at most 5 MB)." });
    expect(pulled.chunks).toBeLessThan(40);
  });

  it("refuses a text form larger than any form the app takes", async () => {
    const { response, pulled } = await postUndeclaredBody("/auth", {
      contentType: "application/x-www-form-urlencoded",
      chunks: 30,
    });
    expect(response.status).toBe(413);
    expect(pulled.chunks).toBeLessThan(30);
  });

  it("refuses a JSON body larger than any the API takes", async () => {
    const { response, pulled } = await postUndeclaredBody("/api/auth/login", {
      contentType: "application/json",
      chunks: 30,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: "The body is too large" });
    expect(pulled.chunks).toBeLessThan(30);
  });
});

describe("JSON nested thousands deep", () => {
  it("is a 400 with a message on a signed-out and a signed-in route, not a crash", async () => {
    const expert = await newExpert("deep-json");
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const deepObject = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
    for (const [path, cookie, body] of [
      ["/api/auth/login", "", deep],
      ["/api/questions", expert.cookie, deepObject],
    ] as const) {
      const response = await SELF.fetch(`${BASE}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: BASE, Cookie: cookie },
        body,
      });
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toEqual({ error: "The body is nested too deeply" });
    }
  });
});

describe("JSON that is not UTF-8", () => {
  it("is a 400 that stores nothing, not text with its bytes swapped for U+FFFD", async () => {
    const client = await newClient("latin1-json");
    const { expertId } = await newExpert("latin1-json-expert");
    const countQuestions = async () =>
      (
        await env.DB.prepare("SELECT count(*) AS n FROM questions WHERE user_id = ?")
          .bind(client.userId)
          .first<{ n: number }>()
      )?.n;
    const text = `{"question":"Caf\u00e9 menu: what should I charge?","requestAudioResponse":false,"expertId":${expertId}}`;
    // "é" as Latin-1 (0xE9): not UTF-8.
    const body = Uint8Array.from(text, (char) => char.charCodeAt(0));
    const response = await SELF.fetch(`${BASE}/api/questions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: BASE, Cookie: client.cookie },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The body is not valid UTF-8" });
    expect(await countQuestions()).toBe(0);
    // The same question in UTF-8 is taken.
    const taken = await SELF.fetch(`${BASE}/api/questions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: BASE, Cookie: client.cookie },
      body: text,
    });
    expect(taken.status).toBe(201);
    expect(await countQuestions()).toBe(1);
  });

  it("is refused in a form too (escaped, raw, multipart, or a bare %), where a typed U+FFFD is taken", async () => {
    const countMessages = async (subject: string) =>
      (
        await env.DB.prepare("SELECT count(*) AS n FROM contact_messages WHERE subject = ?")
          .bind(subject)
          .first<{ n: number }>()
      )?.n;
    const fields =
      "name=Ren%C3%A9&email=rene%40example.com&message=Is+100%25+of+the+fee+refunded%3F&subject=";
    const latin1 = Uint8Array.from(`${fields}Caf\u00e9 refund`, (char) => char.charCodeAt(0));
    // A bare "%" would be dropped ("100 off"); a browser sends it as %25.
    for (const body of [`${fields}Caf%E9+refund`, latin1, `${fields}Caf%C3%A9+refund+100%+off`]) {
      const response = await postRaw("/contact", body, { contentType: "application/x-www-form-urlencoded" });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("The form could not be read.");
    }
    expect(await countMessages("Caf\uFFFD refund")).toBe(0);
    const taken = await postRaw("/contact", `${fields}Caf%C3%A9+refund`, {
      contentType: "application/x-www-form-urlencoded",
    });
    expect(taken.status).toBeLessThan(400);
    expect(await countMessages("Café refund")).toBe(1);
    const stored = await env.DB.prepare("SELECT message FROM contact_messages WHERE subject = ?")
      .bind("Café refund")
      .first<{ message: string }>();
    expect(stored?.message).toBe("Is 100% of the fee refunded?");
    expect(await countMessages("Café refund 100 off")).toBe(0);

    // A multipart form: a Latin-1 "é" in a text part is refused; a U+FFFD typed as such is taken.
    const multipart = (subject: Uint8Array) => {
      const part = (name: string, value: string) =>
        `------x\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const head = new TextEncoder().encode(
        `${part("name", "René")}${part("email", "rene@example.com")}${part("message", "Is 100% refunded?")}------x\r\nContent-Disposition: form-data; name="subject"\r\n\r\n`,
      );
      const tail = new TextEncoder().encode("\r\n------x--\r\n");
      return new Uint8Array([...head, ...subject, ...tail]);
    };
    const refused = await postRaw(
      "/contact",
      multipart(Uint8Array.from("Caf\u00e9 multipart", (c) => c.charCodeAt(0))),
      {
        contentType: "multipart/form-data; boundary=----x",
      },
    );
    expect(refused.status).toBe(400);
    expect(await countMessages("Caf\uFFFD multipart")).toBe(0);
    for (const [body, contentType] of [
      [
        multipart(new TextEncoder().encode("Garbled \uFFFD multipart")),
        "multipart/form-data; boundary=----x",
      ],
      [`${fields}Garbled+%EF%BF%BD+urlencoded`, "application/x-www-form-urlencoded"],
    ] as const) {
      expect((await postRaw("/contact", body, { contentType })).status).toBeLessThan(400);
    }
    expect(await countMessages("Garbled \uFFFD multipart")).toBe(1);
    expect(await countMessages("Garbled \uFFFD urlencoded")).toBe(1);
  });
});

describe("form field names conform cannot read safely", () => {
  /** A page answers with its error screen, a resource route with JSON: both say why. */
  const NOT_READ = "The form could not be read.";

  it("refuses a list index past any form's, before conform builds a list that long", async () => {
    // Conform makes an array as long as the index and the schema walks it: `[4294967294]` took the
    // Worker's whole memory. A smaller one shows the refusal without the wait.
    const expert = await newExpert("long-index");
    const before = await db().select().from(availability).where(eq(availability.expertId, expert.expertId));
    const schedule = await postForm(
      "/expert/availability",
      { intent: "schedule", timeZone: "UTC", "days[1].enabled": "on", "days[200].enabled": "on" },
      { cookie: expert.cookie },
    );
    expect(schedule.status).toBe(400);
    expect(await schedule.text()).toContain(NOT_READ);
    expect(await db().select().from(availability).where(eq(availability.expertId, expert.expertId))).toEqual(
      before,
    );

    const client = await newClient();
    const question = await insertQuestion(db(), {
      userId: client.userId,
      expertId: expert.expertId,
      status: "answered",
      answer: "Do it.",
      answeredAt: new Date(),
    });
    const review = await postForm(
      "/reviews",
      { subject: "question", questionId: String(question.id), rating: "5", "x[200]": "1" },
      { cookie: client.cookie },
    );
    expect(review.status).toBe(400);
    expect(await review.json()).toEqual({ error: NOT_READ });
    expect(await db().select().from(reviews).where(eq(reviews.questionId, question.id))).toEqual([]);
  });

  it("refuses many lists together, or thousands of fields, even with each index small", async () => {
    // Each 1001 slots long, echoed in the login form's reply: 2,000 made a 6 MB reply before.
    const manyLists = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`a${i}[99]`, "x"]));
    const manyFields = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`f${i}`, "x"]));
    for (const extra of [manyLists, manyFields]) {
      const response = await postForm("/auth", {
        intent: "login",
        username: "someone",
        password: "secret-123",
        ...extra,
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(NOT_READ);
    }
    // The largest real form (the week's schedule) is still read.
    const expert = await newExpert("week-schedule");
    const week = Object.fromEntries(
      [0, 1, 2, 3, 4, 5, 6].flatMap((day) => [
        [`days[${day}].enabled`, "on"],
        [`days[${day}].start`, "09:00"],
        [`days[${day}].end`, "17:00"],
      ]),
    );
    const saved = await postForm(
      "/expert/availability",
      { intent: "schedule", timeZone: "UTC", ...week },
      { cookie: expert.cookie },
    );
    expect(saved.status).toBe(200);
  });

  it("refuses conform's reserved and malformed names with a message, signed out too, not a 500", async () => {
    for (const name of ["__intent__", "__state__", "a..b", "x[", "__proto__.polluted", "x".repeat(201)]) {
      for (const path of ["/contact", "/auth"]) {
        const response = await postForm(path, { username: "someone", password: "secret-123", [name]: "1" });
        expect(response.status, `${path} ${name.slice(0, 20)}`).toBe(400);
        expect(await response.text()).toContain(NOT_READ);
      }
    }
    // The same names in a multipart form (the expert application reads files too).
    const form = new FormData();
    form.set("__intent__", new File(["x"], "x.txt"));
    const response = await postRaw("/become-expert", form);
    expect(response.status).toBe(400);
  });
});
