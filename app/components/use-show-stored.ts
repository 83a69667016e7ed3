import { type RefObject, useEffect, useRef } from "react";

/**
 * Once a save has settled and the page's data is loaded again, the form shows what was stored (a name
 * trimmed, a price sent as "31" as "31.00"), as every other screen shows it, unless the person has
 * typed since the save was sent: that is not lost.
 *
 * `stored` is the stored values as one string; `settledSave` is the save's answer once the fetcher is
 * idle, else null (a new one each save, so a save that stored what was already there still puts it
 * back).
 */
export function useShowStoredAfterSave(
  form: { reset: () => void },
  editedSinceSend: RefObject<boolean>,
  stored: string,
  settledSave: unknown,
) {
  const shown = useRef({ stored, settledSave });
  useEffect(() => {
    // A save starting (its answer not yet in, so null) is not one that settled: what was just sent
    // stays in the fields, whatever becomes of it.
    const newSave = settledSave !== null && settledSave !== shown.current.settledSave;
    if (shown.current.stored === stored && !newSave) return;
    shown.current = { stored, settledSave: settledSave ?? shown.current.settledSave };
    if (!editedSinceSend.current) form.reset();
  }, [stored, settledSave, form, editedSinceSend]);
}
