/**
 * Said only where scripts do not run (hidden by the `js` class the document's first script sets
 * before paint), on a screen whose work is done by scripts: better than controls that silently do
 * nothing. Not a <noscript>: a browser with scripts blocked by policy or an extension still shows it.
 */
export function NeedsJavaScript({ children }: { children: string }) {
  return <p className="notice notice--danger no-js-only">{children}</p>;
}
