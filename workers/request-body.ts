/**
 * A request body the Worker reads to the end, when the app answered without reading all of it.
 *
 * workerd keeps a connection open after answering. If the answer went out while the request's body
 * had been read only in part, the next request on that connection fails: behind `wrangler dev`, the
 * next request its proxy sends over it, whoever it comes from, gets a 503 "Your worker restarted
 * mid-request" (a GET waits for a restart that never comes). Remix hands an action a copy of the
 * request built on the body's stream (`new Request(url, { body: request.body })`), and in workerd
 * that copy starts reading the body. So an action that refuses a body unread (a JSON body sent to a
 * form, say) leaves it read in part.
 *
 * The app gets a body read on demand; once the answer is ready, `finish` reads and drops what is left.
 * It reads at most `DRAIN_LIMIT_BYTES`: an upload the app refused for its size is not read further
 * (the routes that take files refuse by declared length before reading, and stop reading past their
 * limit), and that one connection is given up instead.
 *
 * tests/integration/request-body.test.ts; tests/e2e/smoke.test.ts ("a refused body").
 */

/** More than any form or JSON body the app takes; a refused upload beyond this is not worth reading. */
const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

/** `request` with a body read on demand, and `finish`, which reads what the app left unread. */
export function readToTheEnd(
  request: Request,
  { drainLimitBytes = DRAIN_LIMIT_BYTES }: { drainLimitBytes?: number } = {},
): { request: Request; finish: () => Promise<void> } {
  if (!request.body) return { request, finish: async () => {} };
  const source = request.body.getReader();
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (request.method === "GET" || request.method === "HEAD") {
    // A body on a GET or HEAD means nothing, and Remix's own copy of such a request
    // (`new Request(url, request)`) throws: the app gets the request without it.
    const { method, headers, signal, cf } = request;
    return {
      request: new Request(request.url, { method, headers, signal, cf }),
      finish: () => drain(source, declared, drainLimitBytes),
    };
  }
  let ended = false;
  let delivered = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = await source.read();
        if (chunk.done) {
          ended = true;
          controller.close();
        } else {
          delivered += chunk.value.byteLength;
          controller.enqueue(chunk.value);
        }
      },
      // If the app gives up on the body, `finish` still reads the rest.
      cancel() {},
    },
    // Nothing is read ahead of the app.
    { highWaterMark: 0 },
  );
  return {
    request: new Request(request, { body }),
    finish: async () => {
      if (!ended) await drain(source, declared - delivered, drainLimitBytes);
    },
  };
}

/** Reads and drops what is left of a body, unless more than `limit` bytes are declared or sent. */
async function drain(source: ReadableStreamDefaultReader<Uint8Array>, declaredLeft: number, limit: number) {
  if (declaredLeft > limit) return;
  let dropped = 0;
  try {
    for (;;) {
      const chunk = await source.read();
      if (chunk.done) return;
      dropped += chunk.value.byteLength;
      if (dropped > limit) {
        await source.cancel();
        return;
      }
    }
  } catch {
    // The client went away; its connection closes with it.
  }
}
