/**
 * A request's body is read to its end whatever the app does with it (workers/request-body.ts): an
 * answer sent over a body read only in part breaks the connection's next request. The broken next
 * request itself, behind wrangler dev, is tests/e2e/smoke.test.ts ("a refused body").
 */
import { describe, expect, it } from "vitest";
import { readToTheEnd } from "../../workers/request-body";

const CHUNKS = 64;
const CHUNK_BYTES = 1024;

/** A POST whose body arrives in chunks, counting how many of them were read. */
function postWithCountedBody(contentType: string, chunk: (index: number) => Uint8Array) {
  const read = { chunks: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (read.chunks === CHUNKS) return controller.close();
        controller.enqueue(chunk(read.chunks++));
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request("https://app.test/auth", {
    method: "POST",
    headers: { "Content-Type": contentType },
    body,
  });
  return { request, read };
}

/** What Remix does before it calls an action: a copy of the request built on the body's stream. */
function remixCopy(request: Request) {
  return new Request(request.url, { method: request.method, headers: request.headers, body: request.body });
}

const jsonChunk = () => new TextEncoder().encode("x".repeat(CHUNK_BYTES));

describe("readToTheEnd", () => {
  it("reads the rest of a body the app refused after its first chunk was read", async () => {
    const { request, read } = postWithCountedBody("application/json", jsonChunk);
    const body = readToTheEnd(request);
    const copy = remixCopy(body.request);
    // The app reads the start of the body, then answers without the rest.
    const reader = copy.body?.getReader();
    expect((await reader?.read())?.done).toBe(false);
    expect(read.chunks).toBeLessThan(CHUNKS);

    await body.finish();
    expect(read.chunks).toBe(CHUNKS);
  });

  it("reads a body the app never touched", async () => {
    const { request, read } = postWithCountedBody("application/json", jsonChunk);
    const body = readToTheEnd(request);
    remixCopy(body.request);
    await body.finish();
    expect(read.chunks).toBe(CHUNKS);
  });

  it("reads the rest even when the app cancels its copy of the body", async () => {
    const { request, read } = postWithCountedBody("application/json", jsonChunk);
    const body = readToTheEnd(request);
    await body.request.body?.cancel("refused");
    await body.finish();
    expect(read.chunks).toBe(CHUNKS);
  });

  it("hands the app the whole body, byte for byte, when it reads it", async () => {
    const encoder = new TextEncoder();
    const { request, read } = postWithCountedBody("application/x-www-form-urlencoded", (index) =>
      encoder.encode(`${index === 0 ? "" : "&"}field${index}=${"é".repeat(100)}%3Cb%3E`),
    );
    const body = readToTheEnd(request);
    const form = await remixCopy(body.request).formData();
    expect(read.chunks).toBe(CHUNKS);
    expect([...form.keys()]).toHaveLength(CHUNKS);
    expect(form.get("field0")).toBe(`${"é".repeat(100)}<b>`);
    expect(form.get(`field${CHUNKS - 1}`)).toBe(`${"é".repeat(100)}<b>`);
    await body.finish();
  });

  it("leaves a body declared larger than it would read to the app's own size checks", async () => {
    const size = 100 * CHUNK_BYTES;
    // Declared but never written: reading it would wait forever.
    const { readable } = new FixedLengthStream(size);
    const request = new Request("https://app.test/questions/1/answer", {
      method: "POST",
      headers: { "Content-Length": String(size) },
      body: readable,
    });
    const body = readToTheEnd(request, { drainLimitBytes: 10 * CHUNK_BYTES });
    remixCopy(body.request);
    await body.finish();
    expect(body.request.headers.get("Content-Length")).toBe(String(size));
  });

  it("gives up on a body that goes on past what it would read", async () => {
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled++;
          controller.enqueue(new Uint8Array(CHUNK_BYTES));
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request("https://app.test/auth", { method: "POST", body: endless });
    const body = readToTheEnd(request, { drainLimitBytes: 10 * CHUNK_BYTES });
    await body.finish();
    expect(cancelled).toBe(true);
    expect(pulled).toBeGreaterThan(10);
    expect(pulled).toBeLessThan(20);
  });

  it("keeps the request's method, address and headers", () => {
    const { request } = postWithCountedBody("application/json", jsonChunk);
    const body = readToTheEnd(request);
    expect(body.request.method).toBe("POST");
    expect(body.request.url).toBe("https://app.test/auth");
    expect(body.request.headers.get("Content-Type")).toBe("application/json");
  });

  it("leaves a GET as it is", async () => {
    const request = new Request("https://app.test/experts");
    const body = readToTheEnd(request);
    expect(body.request).toBe(request);
    await body.finish();
  });
});
