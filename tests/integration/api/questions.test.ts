import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { questions } from "~/db/schema.server";
import { concat, id3Tag, randomBytes } from "../../audio-files";
import { buildQuestion } from "../../factories";
import { BASE, db, get } from "../support/accounts";
import { callApi, errorOf, json } from "../support/api";
import {
  getQuestion,
  newAdmin,
  newClient,
  newExpert,
  PNG_BYTES,
  pendingQuestion,
  WEBM_BYTES,
} from "../support/questions";

const TEXT_ANSWER = "Start with one package at a fixed price, then raise it as demand grows.";

/** The recorder's upload: the bytes decide the type, whatever the file is called. */
function audioForm(bytes: Uint8Array<ArrayBuffer>, status = "answered") {
  const form = new FormData();
  form.set("status", status);
  form.set("audio", new File([bytes], "audio.mp3", { type: "audio/mpeg" }));
  return form;
}

const postAudio = (questionId: number, form: FormData, cookie = "") =>
  callApi("POST", `/api/questions/${questionId}/audio`, { body: form, cookie });

describe("PATCH /api/questions/{id}", () => {
  it("lets the question's expert answer it, and the asker reads the answer", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const response = await callApi("PATCH", `/api/questions/${question.id}`, {
      cookie: expert.cookie,
      body: { answer: TEXT_ANSWER, status: "answered", audioResponse: "/somewhere/else.mp3" },
    });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ id: question.id, status: "answered" });
    const row = await getQuestion(question.id);
    expect(row).toMatchObject({ status: "answered", answer: TEXT_ANSWER, audioResponse: null });
    const mine = await json(await callApi("GET", "/api/questions", { cookie: client.cookie }));
    expect(mine.find((q: { id: number }) => q.id === question.id)).toMatchObject({ status: "answered" });
  });

  it("saves a draft with status pending (the asker sees the expert working on it)", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const response = await callApi("PATCH", `/api/questions/${question.id}`, {
      cookie: expert.cookie,
      body: { answer: TEXT_ANSWER, status: "pending" },
    });
    expect(response.status).toBe(200);
    expect((await getQuestion(question.id)).status).toBe("in_progress");
  });

  it("answers the answer dialog's message for a short answer and 409 for an answered question", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const short = await callApi("PATCH", `/api/questions/${question.id}`, {
      cookie: expert.cookie,
      body: { answer: "Too short", status: "answered" },
    });
    expect(short.status).toBe(400);
    expect(await errorOf(short)).toBe("Your answer must be at least 10 characters long");
    expect((await getQuestion(question.id)).status).toBe("pending");

    // Ten zero-width spaces look like nothing, so they are nothing: never an answer to charge for.
    const blank = await callApi("PATCH", `/api/questions/${question.id}`, {
      cookie: expert.cookie,
      body: { answer: "\u200b".repeat(10), status: "answered" },
    });
    expect(blank.status).toBe(400);
    expect(await errorOf(blank)).toBe("Your answer must be at least 10 characters long");
    expect(await getQuestion(question.id)).toMatchObject({ status: "pending", answer: null });

    await callApi("PATCH", `/api/questions/${question.id}`, {
      cookie: expert.cookie,
      body: { answer: TEXT_ANSWER },
    });
    const again = await callApi("PATCH", `/api/questions/${question.id}`, {
      cookie: expert.cookie,
      body: { answer: `${TEXT_ANSWER} Again.` },
    });
    expect(again.status).toBe(409);
    expect((await getQuestion(question.id)).answer).toBe(TEXT_ANSWER);
  });

  it("lets an admin answer, and hides the question from everyone else (401 / 404)", async () => {
    const expert = await newExpert();
    const otherExpert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const body = { answer: TEXT_ANSWER, status: "answered" };
    expect((await callApi("PATCH", `/api/questions/${question.id}`, { body })).status).toBe(401);
    for (const cookie of [otherExpert.cookie, client.cookie]) {
      const refused = await callApi("PATCH", `/api/questions/${question.id}`, { cookie, body });
      expect(refused.status).toBe(404);
    }
    expect((await getQuestion(question.id)).status).toBe("pending");
    const admin = await newAdmin();
    expect(
      (await callApi("PATCH", `/api/questions/${question.id}`, { cookie: admin.cookie, body })).status,
    ).toBe(200);
  });
});

describe("POST /api/questions/{id}/audio", () => {
  it("answers with a recording and returns the audioPath the asker can stream", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId, { requestAudioResponse: true });
    const response = await postAudio(question.id, audioForm(WEBM_BYTES), expert.cookie);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ status: "answered", audioPath: `/questions/${question.id}/audio` });
    expect((await getQuestion(question.id)).audioContentType).toBe("audio/webm");
    const stream = await get(body.audioPath, client.cookie);
    expect(stream.status).toBe(200);
    expect(new Uint8Array(await stream.arrayBuffer())).toEqual(WEBM_BYTES);
  });

  it("refuses a file that is not audio (415), a missing file (400) and a JSON body (415), storing nothing", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const image = await postAudio(question.id, audioForm(PNG_BYTES), expert.cookie);
    expect(image.status).toBe(415);
    expect(await errorOf(image)).toBe("Please select an audio file.");
    const empty = new FormData();
    empty.set("status", "answered");
    expect((await postAudio(question.id, empty, expert.cookie)).status).toBe(400);
    const jsonBody = await callApi("POST", `/api/questions/${question.id}/audio`, {
      cookie: expert.cookie,
      body: { status: "answered" },
    });
    expect(jsonBody.status).toBe(415);
    // A multipart body under a type that only mentions multipart is refused as such, not misread.
    const form = new Request("http://x", { method: "POST", body: audioForm(WEBM_BYTES) });
    const disguised = await callApi("POST", `/api/questions/${question.id}/audio`, {
      cookie: expert.cookie,
      body: await form.text(),
      contentType: `text/plain; x=${form.headers.get("Content-Type")}`,
    });
    expect(disguised.status).toBe(415);
    expect(await errorOf(disguised)).toBe("Expected a multipart/form-data body with an audio file");
    expect((await env.MEDIA.list({ prefix: `audio/questions/${question.id}/` })).objects).toEqual([]);
    expect((await getQuestion(question.id)).status).toBe("pending");
  });

  it("refuses a file that only starts like audio (415), storing nothing and answering nothing", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId, { requestAudioResponse: true });
    for (const bytes of [new Uint8Array([0x1a, 0x45, 0xdf, 0xa3]), concat(id3Tag(0), randomBytes(2000))]) {
      const response = await postAudio(question.id, audioForm(bytes), expert.cookie);
      expect(response.status).toBe(415);
      expect(await errorOf(response)).toBe(
        "This audio file could not be read. Please record your answer again or choose another file.",
      );
    }
    expect((await env.MEDIA.list({ prefix: `audio/questions/${question.id}/` })).objects).toEqual([]);
    expect((await getQuestion(question.id)).status).toBe("pending");
  });

  it("refuses an upload over 25 MB by its declared length (413), before reading it", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const size = 30 * 1024 * 1024;
    const { readable } = new FixedLengthStream(size);
    const response = await SELF.fetch(`${BASE}/api/questions/${question.id}/audio`, {
      method: "POST",
      headers: {
        Origin: BASE,
        Cookie: expert.cookie,
        "Content-Type": "multipart/form-data; boundary=----x",
        "Content-Length": String(size),
      },
      body: readable,
    });
    expect(response.status).toBe(413);
    expect(await errorOf(response)).toBe("The file is too large (at most 25 MB).");
    expect((await getQuestion(question.id)).status).toBe("pending");
  });

  it("refuses a signed-out caller (401) and another expert (404)", async () => {
    const expert = await newExpert();
    const otherExpert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    expect((await postAudio(question.id, audioForm(WEBM_BYTES))).status).toBe(401);
    expect((await postAudio(question.id, audioForm(WEBM_BYTES), otherExpert.cookie)).status).toBe(404);
    expect((await env.MEDIA.list({ prefix: `audio/questions/${question.id}/` })).objects).toEqual([]);
  });
});

describe("POST /api/create-payment-intent in test mode", () => {
  it("writes the question first and, with no payment provider, accepts it at once (no client secret)", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const response = await callApi("POST", "/api/create-payment-intent", {
      cookie: client.cookie,
      body: { amount: 5, expertId: expert.expertId, question: "How do I price my first consulting package?" },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ type: "question", status: "pending", clientSecret: null });
    expect(await getQuestion(body.questionId)).toMatchObject({
      expertId: expert.expertId,
      userId: client.userId,
    });
  });

  it("answers the Ask screen's message for a short question, and 401 signed out", async () => {
    const client = await newClient();
    const short = await callApi("POST", "/api/create-payment-intent", {
      cookie: client.cookie,
      body: { amount: 5 },
    });
    expect(short.status).toBe(400);
    expect(await errorOf(short)).toBe("Your question must be at least 10 characters long");
    const signedOut = await callApi("POST", "/api/create-payment-intent", {
      body: { question: "How do I price my first consulting package?" },
    });
    expect(signedOut.status).toBe(401);
  });
});

describe("POST /api/questions with a malformed body", () => {
  it("names the field and what it takes, keeps the screens' own messages, and stores nothing", async () => {
    const client = await newClient();
    const expert = await newExpert();
    const question = "How should I price a first retainer for a small agency?";
    const cases: Array<[unknown, string, string]> = [
      [{ question, expertId: "abc" }, "expertId", "expertId must be a number"],
      [
        { question, expertId: expert.expertId, requestAudioResponse: "yes" },
        "requestAudioResponse",
        "requestAudioResponse must be true or false",
      ],
      [
        { question, expertId: expert.expertId, expectedAmount: -5 },
        "expectedAmount",
        "expectedAmount must be at least 0",
      ],
      [[], "_", "The body must be a JSON object"],
      [
        { question: "Too short", expertId: expert.expertId },
        "question",
        "Your question must be at least 10 characters long",
      ],
      // A value of the wrong type is named as such: the screens' "at least 10 characters" would mislead.
      [{ question: 12345678901234, expertId: expert.expertId }, "question", "question must be text"],
    ];
    for (const [body, field, message] of cases) {
      const response = await callApi("POST", "/api/questions", { cookie: client.cookie, body });
      expect(response.status, message).toBe(400);
      const answer = (await json(response)) as { error: string; fieldErrors: Record<string, string[]> };
      expect(answer.error).toBe(message);
      expect(answer.fieldErrors[field]).toEqual([message]);
    }
    const listed = await callApi("GET", "/api/questions", { cookie: client.cookie });
    expect(((await json(listed)) as unknown[]).length).toBe(0);
  });
});

describe("GET /api/questions for an admin", () => {
  it("pages through every question, 50 at a time, with a Link to the next page", async () => {
    const admin = await newAdmin();
    const client = await newClient();
    const expert = await newExpert();
    // More than a page of questions, whatever other tests have added.
    const database = db();
    const inserts = Array.from({ length: 51 }, () =>
      database.insert(questions).values(buildQuestion({ userId: client.userId, expertId: expert.expertId })),
    );
    await database.batch(inserts as unknown as Parameters<typeof database.batch>[0]);
    const first = await callApi("GET", "/api/questions", { cookie: admin.cookie });
    expect(first.status).toBe(200);
    const firstPage = (await json(first)) as Array<{ id: number }>;
    expect(firstPage).toHaveLength(50);
    expect(first.headers.get("X-Has-More")).toBe("true");
    expect(first.headers.get("Link")).toBe('</api/questions?page=2>; rel="next"');
    const second = (await json(
      await callApi("GET", "/api/questions?page=2", { cookie: admin.cookie }),
    )) as Array<{
      id: number;
    }>;
    expect(second.length).toBeGreaterThan(0);
    // No question on both pages; nonsense pages are page 1.
    const seen = new Set(firstPage.map((question) => question.id));
    expect(second.some((question) => seen.has(question.id))).toBe(false);
    const nonsense = (await json(
      await callApi("GET", "/api/questions?page=-3", { cookie: admin.cookie }),
    )) as Array<{
      id: number;
    }>;
    expect(nonsense.map((question) => question.id)).toEqual(firstPage.map((question) => question.id));
  });
});
