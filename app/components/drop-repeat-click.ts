import type { MouseEvent } from "react";

/**
 * For buttons whose row changes under the pointer as soon as it is pressed (Verify becomes Unverify,
 * a row leaves its filtered list and the next row's button moves up): the second click of a
 * double-click (or a double tap) would act on something the admin never chose. It is dropped; a
 * click from the keyboard (detail 0) or a single click goes through.
 */
export function dropRepeatClick(event: MouseEvent) {
  if (event.detail > 1) event.preventDefault();
}
