import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../../workers/app";
import { BASE } from "./accounts";

/**
 * POSTs a body of `chunks` × 1 MiB with no Content-Length (as a chunked upload arrives), counting the
 * chunks the Worker pulled. It goes straight into the Worker's fetch handler: through SELF the body
 * would be pumped across a connection, and the pump reports the Worker's early stop as an unhandled
 * "Network connection lost" in the test runner. Host is set as a real request would carry it.
 */
export async function postUndeclaredBody(
  path: string,
  { contentType, cookie = "", chunks }: { contentType: string; cookie?: string; chunks: number },
) {
  const chunk = new Uint8Array(1024 * 1024).fill(0x61);
  const pulled = { chunks: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.chunks >= chunks) return controller.close();
      pulled.chunks += 1;
      controller.enqueue(chunk);
    },
  });
  const request = new Request(`${BASE}${path}`, {
    method: "POST",
    headers: {
      Host: new URL(BASE).host,
      Origin: BASE,
      "Content-Type": contentType,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body,
    duplex: "half",
  } as RequestInit);
  const context = createExecutionContext();
  const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], env as never, context);
  await waitOnExecutionContext(context);
  return { response, pulled };
}
