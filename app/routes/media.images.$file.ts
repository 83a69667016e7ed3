import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { serveObject } from "~/services/media.server";

const IMAGE_FILE = /^[0-9a-f]{64}\.(jpg|png|webp|gif)$/;

/** Public, content-addressed images (profile pictures, headers): cached for a year. */
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const file = params.file ?? "";
  if (!IMAGE_FILE.test(file)) {
    return new Response("Not Found", { status: 404, headers: { "Cache-Control": "no-store" } });
  }
  return serveObject(context.media, `images/${file}`, request, {
    cacheControl: "public, max-age=31536000, immutable",
  });
}
