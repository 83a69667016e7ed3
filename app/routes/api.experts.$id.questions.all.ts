import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiError, apiJson, parsePathId, requireApiExpertOwner } from "~/lib/api.server";
import { listQuestionsForExpert } from "~/models/questions.server";

/** GET /api/experts/{id}/questions/all: every paid question to the expert, for the expert and admins. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = parsePathId(params.id);
  if (id === null) return apiError(404, "Expert not found");
  await requireApiExpertOwner(context, request, id, { allowAdmin: true });
  return apiJson(await listQuestionsForExpert(context.primaryDb, id));
}
