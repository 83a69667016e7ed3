/**
 * What the browser checks before an image is sent (the server checks again, by the file's bytes:
 * app/services/media.server.ts). Kept equal to the server's limit by a unit test.
 */
export const IMAGE_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const ACCEPTED_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export const IMAGE_ACCEPT_ATTRIBUTE = ACCEPTED_IMAGE_TYPES.join(",");
export const IMAGE_TOO_LARGE_MESSAGE = "The image is too large (at most 5 MB).";
export const IMAGE_WRONG_TYPE_MESSAGE = "Please choose a JPEG, PNG, WebP or GIF image.";
export const IMAGE_CUT_SHORT_MESSAGE =
  "The image file is incomplete or damaged. Please choose it again, or choose another picture.";

/** The message for a file the browser can already tell is unacceptable, or null. */
export function checkImageFile(file: { size: number; type: string }): string | null {
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) return IMAGE_WRONG_TYPE_MESSAGE;
  if (file.size > IMAGE_UPLOAD_MAX_BYTES) return IMAGE_TOO_LARGE_MESSAGE;
  return null;
}
