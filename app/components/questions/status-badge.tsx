import { QUESTION_STATUS_LABELS, QUESTION_STATUS_SHORT, type QuestionStatus } from "~/lib/questions";

/** A question's status: SPEC.md's long texts for the asker, the short word in tables. */
export function StatusBadge({ status, long = false }: { status: string; long?: boolean }) {
  const known = status as QuestionStatus;
  const text = (long ? QUESTION_STATUS_LABELS : QUESTION_STATUS_SHORT)[known] ?? status;
  return (
    <span className="badge status-badge" data-status={status}>
      {text}
    </span>
  );
}
