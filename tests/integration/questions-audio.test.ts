import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { concat, id3Tag, randomBytes } from "../audio-files";
import { BASE, get } from "./support/accounts";
import {
  getLedger,
  getQuestion,
  getWith,
  newAdmin,
  newClient,
  newExpert,
  notificationsOf,
  PNG_BYTES,
  pendingQuestion,
  postMultipart,
  WEBM_BYTES,
} from "./support/questions";
import { postUndeclaredBody } from "./support/undeclared-body";

/** An answer form with a file, as the recorder sends it (Chrome records WebM but we name it audio.mp3). */
function audioForm(
  bytes: Uint8Array<ArrayBuffer>,
  { name = "audio.mp3", type = "audio/mpeg", answer = "" } = {},
) {
  const form = new FormData();
  form.set("status", "answered");
  if (answer) form.set("answer", answer);
  form.set("audio", new File([bytes], name, { type }));
  return form;
}

const storedAudio = async (questionId: number) =>
  (await env.MEDIA.list({ prefix: `audio/questions/${questionId}/` })).objects;

async function answeredWithAudio() {
  const expert = await newExpert();
  const client = await newClient();
  const question = await pendingQuestion(client.userId, expert.expertId, { requestAudioResponse: true });
  const response = await postMultipart(
    `/questions/${question.id}/answer`,
    audioForm(WEBM_BYTES),
    expert.cookie,
  );
  expect(response.status).toBe(200);
  return { expert, client, question };
}

describe("audio answers", () => {
  it("stores an uploaded recording in R2 with its true type, whatever it is called", async () => {
    const { question } = await answeredWithAudio();
    const stored = await getQuestion(question.id);
    expect(stored).toMatchObject({ status: "answered", audioContentType: "audio/webm", answer: null });
    expect(stored.audioResponse).toMatch(new RegExp(`^audio/questions/${question.id}/[0-9a-f-]+\\.webm$`));
    const object = await env.MEDIA.get(stored.audioResponse!);
    expect(object?.httpMetadata?.contentType).toBe("audio/webm");
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(WEBM_BYTES);
  });

  it("refuses an image renamed .mp3 with SPEC.md's message, storing nothing", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const response = await postMultipart(
      `/questions/${question.id}/answer`,
      audioForm(PNG_BYTES),
      expert.cookie,
    );
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ ok: false, message: "Please select an audio file." });
    expect(await storedAudio(question.id)).toEqual([]);
    expect((await getQuestion(question.id)).status).toBe("pending");
  });

  it("refuses a file that only starts like audio, answering nothing and storing nothing", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId, { requestAudioResponse: true });
    const before = { question: await getQuestion(question.id), ledger: await getLedger(question.id) };
    const message =
      "This audio file could not be read. Please record your answer again or choose another file.";
    const files: Array<[string, Uint8Array<ArrayBuffer>, string]> = [
      ["WebM's four magic bytes", new Uint8Array([0x1a, 0x45, 0xdf, 0xa3]), "answer.webm"],
      ["an ID3 tag before 2,000 random bytes", concat(id3Tag(0), randomBytes(2000)), "answer.mp3"],
    ];
    for (const [what, bytes, name] of files) {
      const response = await postMultipart(
        `/questions/${question.id}/answer`,
        audioForm(bytes, { name }),
        expert.cookie,
      );
      expect(response.status, what).toBe(415);
      expect(await response.json(), what).toMatchObject({
        ok: false,
        message,
        fieldErrors: { audio: [message] },
      });
    }
    expect(await storedAudio(question.id)).toEqual([]);
    // Still waiting for an answer, its payment as it was: nothing was captured.
    expect(await getQuestion(question.id)).toEqual(before.question);
    expect(await getLedger(question.id)).toEqual(before.ledger);
    expect(await notificationsOf(client.userId)).toEqual([]);
  });

  it("says an empty recording is empty (not that a text answer is missing), storing nothing", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const response = await postMultipart(
      `/questions/${question.id}/answer`,
      audioForm(new Uint8Array(0)),
      expert.cookie,
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      ok: false,
      message: "The audio file is empty. Please record or choose it again.",
      fieldErrors: { audio: ["The audio file is empty. Please record or choose it again."] },
    });
    expect(await storedAudio(question.id)).toEqual([]);
    expect((await getQuestion(question.id)).status).toBe("pending");
  });

  it("refuses a 100 MB upload by its declared length, before reading it", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const size = 100 * 1024 * 1024;
    // A body that declares 100 MB but is never written: the Worker must answer without reading it.
    const { readable } = new FixedLengthStream(size);
    const response = await SELF.fetch(`${BASE}/questions/${question.id}/answer`, {
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
    expect(await response.json()).toMatchObject({ message: "The file is too large (at most 25 MB)." });
    expect((await getQuestion(question.id)).status).toBe("pending");
  });

  it("cuts off an upload of undeclared length once it passes the limit", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const { response, pulled } = await postUndeclaredBody(`/questions/${question.id}/answer`, {
      contentType: "multipart/form-data; boundary=----x",
      cookie: expert.cookie,
      chunks: 40,
    });
    expect(response.status).toBe(413);
    expect(pulled.chunks).toBeLessThan(40);
    expect(await storedAudio(question.id)).toEqual([]);
  });

  it("refuses someone who may not answer before reading their upload", async () => {
    const expert = await newExpert();
    const intruder = await newExpert("intruder");
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const cases: Array<[string, string, string]> = [
      ["another expert", `/questions/${question.id}/answer`, intruder.cookie],
      ["the asker", `/questions/${question.id}/answer`, client.cookie],
      ["a question that does not exist", "/questions/99999999/answer", expert.cookie],
      ["another expert, through the API", `/api/questions/${question.id}/audio`, intruder.cookie],
    ];
    for (const [who, path, cookie] of cases) {
      // 20 MiB, within the 25 MB limit: only the check stops it, before it is read.
      const { response, pulled } = await postUndeclaredBody(path, {
        contentType: "multipart/form-data; boundary=----x",
        cookie,
        chunks: 20,
      });
      expect([403, 404], who).toContain(response.status);
      // Only what the Worker drains after answering (8 MiB, read and dropped, never held); an upload
      // read for the form would have taken all 20.
      expect(pulled.chunks, who).toBeLessThanOrEqual(10);
    }
    expect((await getQuestion(question.id)).status).toBe("pending");
  });

  it("keeps no file when the answer is refused (another expert's question)", async () => {
    const expert = await newExpert();
    const intruder = await newExpert("intruder");
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    const response = await postMultipart(
      `/questions/${question.id}/answer`,
      audioForm(WEBM_BYTES),
      intruder.cookie,
    );
    expect(response.status).toBe(404);
    expect(await storedAudio(question.id)).toEqual([]);
  });
});

describe("playing an audio answer (/questions/{id}/audio)", () => {
  it("streams it to the asker with Range support and no caching", async () => {
    const { client, question } = await answeredWithAudio();
    const whole = await getWith(`/questions/${question.id}/audio`, client.cookie);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Type")).toBe("audio/webm");
    expect(whole.headers.get("Cache-Control")).toBe("private, no-store");
    expect(whole.headers.get("Accept-Ranges")).toBe("bytes");
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(WEBM_BYTES);

    const part = await getWith(`/questions/${question.id}/audio`, client.cookie, { Range: "bytes=4-7" });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 4-7/${WEBM_BYTES.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(WEBM_BYTES.slice(4, 8));

    // A resumed download whose copy has changed since (If-Range names another version) gets it whole.
    const etag = whole.headers.get("ETag")!;
    const same = await getWith(`/questions/${question.id}/audio`, client.cookie, {
      Range: "bytes=4-7",
      "If-Range": etag,
    });
    expect(same.status).toBe(206);
    await same.arrayBuffer();
    const changed = await getWith(`/questions/${question.id}/audio`, client.cookie, {
      Range: "bytes=4-7",
      "If-Range": '"another-version"',
    });
    expect(changed.status).toBe(200);
    expect(new Uint8Array(await changed.arrayBuffer())).toEqual(WEBM_BYTES);
  });

  it("plays it for the answering expert and admins, and is a 404 for everyone else", async () => {
    const { expert, question } = await answeredWithAudio();
    const admin = await newAdmin();
    for (const person of [expert, admin]) {
      const response = await getWith(`/questions/${question.id}/audio`, person.cookie);
      expect(response.status, person.username).toBe(200);
      await response.arrayBuffer();
    }
    const stranger = await newClient("stranger");
    const otherExpert = await newExpert("other");
    for (const cookie of [stranger.cookie, otherExpert.cookie, ""]) {
      const response = await getWith(`/questions/${question.id}/audio`, cookie);
      expect(response.status).toBe(404);
      expect(response.headers.get("Cache-Control")).toBe("private, no-store");
      await response.arrayBuffer();
    }
  });

  it("is a 404 for a question without a recorded answer or an id that is not one", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const question = await pendingQuestion(client.userId, expert.expertId);
    expect((await get(`/questions/${question.id}/audio`, client.cookie)).status).toBe(404);
    expect((await get("/questions/abc/audio", client.cookie)).status).toBe(404);
  });

  it("shows the asker the answer's audio player", async () => {
    const { client, question } = await answeredWithAudio();
    const html = await (await get(`/questions/${question.id}`, client.cookie)).text();
    expect(html).toContain(`src="/questions/${question.id}/audio"`);
    expect(html).toContain("Audio response");
  });
});
