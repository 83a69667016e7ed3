import type { AppLoadContext } from "@remix-run/cloudflare";
import { IMAGE_CUT_SHORT_MESSAGE, IMAGE_WRONG_TYPE_MESSAGE } from "~/lib/images";
import { type ExpertImageKind, isImageInUse, setExpertImage } from "~/models/experts.server";
import { invalidateExpert } from "./cache.server";
import {
  hasTooManyPixels,
  IMAGE_TOO_MANY_PIXELS_MESSAGE,
  imageDimensions,
  isImageWhole,
} from "./image-dimensions.server";
import {
  deleteStoredImage,
  IMAGE_MAX_BYTES,
  readUploadedFile,
  sniffImageType,
  storeImage,
  UploadError,
} from "./media.server";

/**
 * Profile and header pictures (DESIGN.md "Media"): at most 5 MB, JPEG, PNG, WebP or GIF judged by
 * their bytes (an SVG or an HTML page named .png is refused), whole (not cut short), stored under
 * content-addressed keys.
 */
export const WRONG_IMAGE_TYPE_MESSAGE = IMAGE_WRONG_TYPE_MESSAGE;

/** Reads, checks and stores one uploaded image; throws UploadError when it is refused. */
export async function storeUploadedImage(media: R2Bucket, value: FormDataEntryValue | null) {
  const { bytes, contentType } = await readUploadedFile(value, {
    maxBytes: IMAGE_MAX_BYTES,
    sniff: sniffImageType,
    wrongTypeMessage: WRONG_IMAGE_TYPE_MESSAGE,
  });
  const dimensions = imageDimensions(bytes, contentType);
  if (!dimensions) throw new UploadError(WRONG_IMAGE_TYPE_MESSAGE, 415);
  if (hasTooManyPixels(dimensions)) throw new UploadError(IMAGE_TOO_MANY_PIXELS_MESSAGE, 400);
  if (!isImageWhole(bytes, contentType)) throw new UploadError(IMAGE_CUT_SHORT_MESSAGE, 400);
  return storeImage(media, bytes, contentType);
}

/** True when the form field holds a chosen file (an empty file input sends a nameless, empty file). */
export function hasUploadedFile(value: FormDataEntryValue | null): boolean {
  return value !== null && typeof value !== "string" && (value.size > 0 || value.name !== "");
}

/** Removes an image this app stored unless some profile still shows it (keys are shared by content). */
export async function deleteImageIfUnused(
  context: Pick<AppLoadContext, "primaryDb" | "media">,
  url: string | null,
) {
  if (!url) return;
  if (await isImageInUse(context.primaryDb, url)) return;
  await deleteStoredImage(context.media, url);
}

/**
 * Replaces the owner's profile or header image: checks and stores the new one, points the profile at
 * it, removes the old one when nothing else uses it, and refreshes the public read model.
 * Returns null (nothing changed, nothing kept) when the profile is not the owner's.
 */
export async function replaceExpertImage(
  context: Pick<AppLoadContext, "primaryDb" | "media" | "cache" | "now">,
  owner: { expertId: number; userId: number },
  kind: ExpertImageKind,
  value: FormDataEntryValue | null,
): Promise<{ url: string } | null> {
  const stored = await storeUploadedImage(context.media, value);
  const result = await setExpertImage(context.primaryDb, owner, kind, stored.url, new Date(context.now()));
  if (!result) {
    await deleteImageIfUnused(context, stored.url);
    return null;
  }
  if (result.previous && result.previous !== stored.url) await deleteImageIfUnused(context, result.previous);
  await invalidateExpert(context, { id: owner.expertId, customUrls: [result.customUrl] });
  return { url: stored.url };
}

export { UploadError };
