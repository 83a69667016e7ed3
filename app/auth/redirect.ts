/**
 * Only same-site paths are followed after sign-in: never another host, "//host" or "/\host".
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // Browsers treat backslashes and control characters in URLs loosely; refuse them outright.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point of the check
  if (/[\\\u0000-\u001f]/.test(to)) return fallback;
  try {
    const url = new URL(to, "https://same-site.invalid");
    if (url.origin !== "https://same-site.invalid") return fallback;
    // Dot segments collapse while parsing ("/.//host" becomes "//host"), so check what is returned too.
    const path = `${url.pathname}${url.search}${url.hash}`;
    return path.startsWith("//") ? fallback : path;
  } catch {
    return fallback;
  }
}
