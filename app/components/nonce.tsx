import { createContext, type ReactNode, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the response being rendered (set by app/entry.server.tsx).
 * In the browser it is empty: browsers hide nonces from the DOM, and scripts added after hydration
 * come from our own origin.
 */
const NonceContext = createContext<string | undefined>(undefined);

export function NonceProvider({ nonce, children }: { nonce: string; children: ReactNode }) {
  return <NonceContext.Provider value={nonce}>{children}</NonceContext.Provider>;
}

/** The nonce to put on an inline `<script>`; undefined in the browser. */
export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
