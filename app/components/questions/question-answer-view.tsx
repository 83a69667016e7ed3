import { useViewerTimeZone } from "~/components/use-viewer-time-zone";
import { formatCents } from "~/lib/money";
import { formatDateTime } from "~/lib/questions";

/**
 * An answer as everyone who may see it reads it: the text (always as text, never as markup), the
 * recorded answer's player (streamed from /questions/{id}/audio, which checks who is asking), when it
 * was answered and, for the expert, the fee.
 */
export function QuestionAnswerView({
  questionId,
  answer,
  hasAudio,
  answeredAt,
  fee,
  timeZone: shownZone,
}: {
  questionId: number;
  answer: string | null;
  hasAudio: boolean;
  answeredAt: Date | string | null;
  fee?: number;
  /** The zone the rest of the screen shows times in (the expert's desk: their schedule's); else the viewer's. */
  timeZone?: string;
}) {
  const viewerZone = useViewerTimeZone();
  const timeZone = shownZone ?? viewerZone;
  return (
    <div className="stack answer-view">
      {answer ? <p className="answer-text">{answer}</p> : null}
      {hasAudio ? (
        <figure className="audio-answer">
          <figcaption className="label">Audio response</figcaption>
          {/* biome-ignore lint/a11y/useMediaCaption: a spoken answer recorded by the expert has no caption track */}
          <audio controls preload="metadata" src={`/questions/${questionId}/audio`} className="audio-player">
            <a href={`/questions/${questionId}/audio`}>Download the audio response</a>
          </audio>
        </figure>
      ) : null}
      <dl className="details">
        <dt>Answered</dt>
        <dd>{formatDateTime(answeredAt, timeZone)}</dd>
        {fee !== undefined ? (
          <>
            <dt>Fee</dt>
            <dd>{formatCents(fee)}</dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}
