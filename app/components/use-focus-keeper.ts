import { useEffect } from "react";
import { keepFocus } from "./focus-keeper.client";

/** Keeps keyboard and screen-reader users in their place when the page changes under them (see keepFocus). */
export function useFocusKeeper() {
  useEffect(keepFocus, []);
}
