import { type RefObject, useEffect } from "react";

/**
 * Keeps what was typed or chosen in a server-rendered form before its script ran. React leaves a
 * field's DOM value alone while hydrating, but the next render writes a controlled field's state back
 * over it, silently emptying it. On mount this hands each named field's current values (as FormData
 * reads them: the text, the chosen option, the checked boxes) to its setter. On a client-side render
 * the DOM holds the state's own values, so nothing changes.
 */
export function useTypedBeforeHydration(
  formRef: RefObject<HTMLFormElement | null>,
  setters: Record<string, (values: string[]) => void>,
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, before the first render after hydration
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const data = new FormData(form);
    for (const [name, set] of Object.entries(setters)) {
      set(data.getAll(name).filter((value): value is string => typeof value === "string"));
    }
  }, []);
}
