import { type FormEvent, useEffect, useRef } from "react";
import { stopWhenOffline } from "./keep-form-when-offline";

/**
 * A form's onSubmit for an action that must go once (decline, cancel): a second submit while the
 * first is on its way is dropped. A double click lands both clicks before the button can show it is
 * busy (it disables only once the page has drawn again), so the second would be sent, refused as
 * already done, and its error would be the toast shown. Also stops, and says so, when offline.
 */
export function useSendOnce(fetcherState: "idle" | "submitting" | "loading") {
  const sending = useRef(false);
  useEffect(() => {
    if (fetcherState === "idle") sending.current = false;
  }, [fetcherState]);
  return (event: FormEvent<HTMLFormElement>) => {
    if (sending.current) {
      event.preventDefault();
      return;
    }
    if (!stopWhenOffline(event)) sending.current = true;
  };
}
