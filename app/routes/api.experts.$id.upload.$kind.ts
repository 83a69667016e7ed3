import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { forgetCachedUser, getOptionalUser } from "~/auth/session.server";
import { apiError, methodNotAllowed, parsePathId } from "~/lib/api.server";
import { mediaTypeOf } from "~/lib/form-data.server";
import { replaceExpertImage, UploadError } from "~/services/expert-images.server";
import { IMAGE_MAX_BYTES, readUploadForm } from "~/services/media.server";

export const allowedMethods = ["POST"] as const;

const KINDS = { profile: "profileImage", header: "headerImage" } as const;

/**
 * POST /api/experts/{id}/upload/profile | header, multipart field `image` (SPEC.md section 7).
 * Only the signed-in owner of expert {id} may upload: anyone else gets 403 and nothing changes.
 * Answers { profileImage } or { headerImage } with the new URL.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(...allowedMethods);
  const kind: keyof typeof KINDS | null =
    params.kind === "profile" || params.kind === "header" ? params.kind : null;
  const expertId = parsePathId(params.id);
  if (!kind || expertId === null) return apiError(404, "Not found");
  const user = await getOptionalUser(context, request);
  if (!user) return apiError(401, "You must be logged in as an expert to upload images");
  if (!user.expertProfile || expertId !== user.expertProfile.id) {
    return apiError(403, "You can only upload images to your own expert profile");
  }
  if (mediaTypeOf(request) !== "multipart/form-data") {
    return apiError(415, "Expected a multipart/form-data body with an image file");
  }
  try {
    const form = await readUploadForm(request, IMAGE_MAX_BYTES);
    const stored = await replaceExpertImage(context, { expertId, userId: user.id }, kind, form.get("image"));
    if (!stored) return apiError(403, "You can only upload images to your own expert profile");
    forgetCachedUser(context);
    return Response.json(
      { [KINDS[kind]]: stored.url },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    if (error instanceof UploadError)
      return apiError(error.status, "Failed to upload image", { reason: error.message });
    throw error;
  }
}

export const loader = () => methodNotAllowed(...allowedMethods);
