import { type RefObject, useEffect, useRef } from "react";

/**
 * Once a save has settled and the page's data is loaded again, the form shows what was stored (a name
 * trimmed, a price sent as "31" as "31.00"), as every other screen shows it, unless the person has
 * typed since the save was sent: that is not lost.
 *
 * `stored` is the stored values as one string; `settledSave` is the save's answer once the fetcher is
 * idle (a new one each save, so a save that stored what was already there still puts it back).
 */
export function useShowStoredAfterSave(
  form: { reset: () => void },
  editedSinceSend: RefObject<boolean>,
  stored: string,
  settledSave: unknown,
) {
  const shown = useRef({ stored, settledSave });
  useEffect(() => {
    if (shown.current.stored === stored && shown.current.settledSave === settledSave) return;
    shown.current = { stored, settledSave };
    if (!editedSinceSend.current) form.reset();
  }, [stored, settledSave, form, editedSinceSend]);
}
