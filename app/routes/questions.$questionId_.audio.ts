import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getOptionalUser } from "~/auth/session.server";
import { actorOf, getAudioKeyForViewer, parseExpertId } from "~/models/questions.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import { serveObject } from "~/services/media.server";

const notFound = () =>
  new Response("Not Found", { status: 404, headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } });

/**
 * GET /questions/{id}/audio: a recorded answer, streamed from R2 with Range support, only to the
 * asker, the answering expert and admins. Everyone else gets a 404, as if there were no answer.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await getOptionalUser(context, request);
  const questionId = parseExpertId(params.questionId);
  if (!user || questionId === null) return notFound();
  const key = await getAudioKeyForViewer(context.primaryDb, questionId, actorOf(user));
  if (!key) return notFound();
  return serveObject(context.media, key, request, { cacheControl: PRIVATE_CACHE_CONTROL });
}
