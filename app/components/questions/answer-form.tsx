import { useFetcher, useLocation } from "@remix-run/react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { stopWhenOffline } from "~/components/keep-form-when-offline";
import { Button } from "~/components/ui/button";
import { ErrorList, Label, Textarea } from "~/components/ui/field";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { type ToastMessage, toast } from "~/components/ui/toast";
import { useFocusFirstInvalid } from "~/components/use-focus-first-invalid";
import { useSendOnce } from "~/components/use-send-once";
import { useSessionDraft } from "~/components/use-session-draft";
import { ANSWER_LIMITS, ANSWER_MESSAGES, ANSWER_STATUS_OPTIONS, answerSchema } from "~/schemas/questions";
import { AudioRecorder } from "./audio-recorder";

/** What POST /questions/{id}/answer (and /decline) answer a fetcher with. */
export type QuestionActionData = {
  ok: boolean;
  message: string;
  toast?: ToastMessage;
  fieldErrors?: Record<string, string[]>;
};

/** Shows a resource route's toast once per response and calls `onSuccess` when it worked. */
export function useActionToast(data: QuestionActionData | undefined, onSuccess?: () => void) {
  const onSuccessRef = useRef(onSuccess);
  onSuccessRef.current = onSuccess;
  useEffect(() => {
    if (!data) return;
    toast(
      data.toast ?? {
        title: data.ok ? "Done" : "Error",
        description: data.message,
        variant: data.ok ? "default" : "destructive",
      },
    );
    if (data.ok) onSuccessRef.current?.();
  }, [data]);
}

/**
 * Answers one question, by text (with SPEC.md's status select: answered by default, or pending to
 * keep a draft) or by a recorded or uploaded audio file. Used by the expert's desk, the admin area
 * and /test-audio; all post to /questions/{id}/answer, which checks everything again.
 */
export function AnswerForm({
  questionId,
  who,
  initialAnswer = "",
  onAnswered,
  onBusyChange,
  locked = false,
  submitLabel = "Submit Answer",
}: {
  questionId: number;
  who: "expert" | "admin";
  initialAnswer?: string | null;
  onAnswered?: () => void;
} & SendProps & { submitLabel?: string }) {
  const fetcher = useFetcher<QuestionActionData>();
  const busy = fetcher.state !== "idle";
  useReportBusy(busy, onBusyChange);
  const [tab, setTab] = useState("text");
  const [answer, setAnswer] = useState(initialAnswer ?? "");
  const [status, setStatus] = useState<"answered" | "pending">("answered");
  const [audio, setAudio] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const id = useId();
  const location = useLocation();
  const forgetDraft = useSessionDraft(`draft:answer:${questionId}`, answer, setAnswer, initialAnswer ?? "");
  useActionToast(fetcher.data, () => {
    forgetDraft();
    onAnswered?.();
  });
  useFocusFirstInvalid(`${id}-text`, fetcher.data?.fieldErrors);
  const shown = {
    ...errors,
    ...(fetcher.state === "idle" && fetcher.data?.fieldErrors ? fetcher.data.fieldErrors : {}),
  };

  function submit(event: FormEvent, kind: "text" | "audio") {
    event.preventDefault();
    if (stopWhenOffline(event)) return;
    const hasAudio = kind === "audio" && audio !== null;
    if (kind === "audio" && !hasAudio) {
      setErrors({ audio: [ANSWER_MESSAGES.textOrAudio] });
      return;
    }
    const parsed = answerSchema(who).safeParse({
      answer: kind === "text" ? answer.trim() || undefined : undefined,
      status: kind === "text" ? status : "answered",
      hasAudio,
    });
    if (!parsed.success) {
      const next: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? "answer");
        next[key] = [...(next[key] ?? []), issue.message];
      }
      setErrors(next);
      return;
    }
    setErrors({});
    const form = new FormData();
    form.set("who", who);
    form.set("status", parsed.data.status);
    if (kind === "text") form.set("answer", parsed.data.answer ?? "");
    if (hasAudio && audio) form.set("audio", audio, audio.name);
    fetcher.submit(form, {
      method: "post",
      action: `/questions/${questionId}/answer`,
      encType: "multipart/form-data",
    });
  }

  return (
    <Tabs value={tab} onValueChange={setTab} className="answer-form">
      <TabsList aria-label="How to answer">
        <TabsTrigger value="text">Text Response</TabsTrigger>
        <TabsTrigger value="audio">Audio Response</TabsTrigger>
      </TabsList>
      {/* Each panel starts with its own control, so the panel itself is no Tab stop. */}
      <TabsContent value="text" tabIndex={-1}>
        {/* Without JavaScript (the admin area renders this on the server) it is a plain POST. */}
        <form
          id={`${id}-text`}
          className="stack"
          noValidate
          method="post"
          action={`/questions/${questionId}/answer?${new URLSearchParams({ redirectTo: `${location.pathname}${location.search}` })}`}
          onSubmit={(event) => submit(event, "text")}
        >
          <input type="hidden" name="who" value={who} />
          <div className="field">
            <Label htmlFor={`${id}-answer`}>Your Answer</Label>
            <Textarea
              id={`${id}-answer`}
              name="answer"
              rows={8}
              maxLength={ANSWER_LIMITS.max}
              value={answer}
              onChange={(event) => setAnswer(event.target.value)}
              placeholder="Write a clear, practical answer..."
              required
              aria-invalid={shown.answer ? true : undefined}
              aria-describedby={`${id}-answer-error`}
            />
            <ErrorList id={`${id}-answer-error`} errors={shown.answer} />
          </div>
          <div className="field">
            <Label htmlFor={`${id}-status`}>Status</Label>
            <select
              id={`${id}-status`}
              name="status"
              className="select"
              value={status}
              onChange={(event) => setStatus(event.target.value as "answered" | "pending")}
              aria-describedby={`${id}-status-hint ${id}-status-error`}
            >
              {ANSWER_STATUS_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
            <p id={`${id}-status-hint`} className="hint">
              Answered sends the answer now. Pending saves it as a draft.
            </p>
            <ErrorList id={`${id}-status-error`} errors={shown.status} />
          </div>
          <Button type="submit" disabled={busy || locked}>
            {busy ? "Submitting..." : status === "pending" ? "Save Draft" : submitLabel}
          </Button>
        </form>
      </TabsContent>
      <TabsContent value="audio" tabIndex={-1}>
        <form className="stack" noValidate onSubmit={(event) => submit(event, "audio")}>
          <AudioRecorder
            disabled={busy || locked}
            onChange={(file) => {
              setAudio(file);
              setErrors({});
            }}
          />
          <ErrorList id={`${id}-audio-error`} errors={shown.audio} />
          {/* Focus stays on this button when the recording is missing: it names the problem. */}
          <Button type="submit" disabled={busy || locked} aria-describedby={`${id}-audio-error`}>
            {busy ? "Sending..." : "Send Audio Response"}
          </Button>
        </form>
      </TabsContent>
    </Tabs>
  );
}

/** Declines a question after a confirmation step; the client is told and never charged. */
export function DeclineQuestion({
  questionId,
  onDeclined,
  onBusyChange,
  locked = false,
}: {
  questionId: number;
  onDeclined?: () => void;
} & SendProps) {
  const fetcher = useFetcher<QuestionActionData>();
  useReportBusy(fetcher.state !== "idle", onBusyChange);
  const [confirming, setConfirming] = useState(false);
  const hintId = useId();
  const declineRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLFormElement>(null);
  // Set by the two buttons: each swaps itself out of the page, and focus follows to what replaces it
  // (the question asked, or Decline question again) instead of falling to the dialog.
  const moveFocus = useRef(false);
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    (confirming ? confirmRef : declineRef).current?.focus();
  }, [confirming]);
  const confirm = (value: boolean) => {
    moveFocus.current = true;
    setConfirming(value);
  };
  useActionToast(fetcher.data, onDeclined);
  const busy = fetcher.state !== "idle";
  const sendOnce = useSendOnce(fetcher.state);
  if (!confirming) {
    return (
      <Button
        ref={declineRef}
        type="button"
        variant="secondary"
        size="sm"
        onClick={() => confirm(true)}
        disabled={locked}
      >
        Decline question
      </Button>
    );
  }
  return (
    <fetcher.Form
      ref={confirmRef}
      method="post"
      action={`/questions/${questionId}/decline`}
      onSubmit={sendOnce}
      className="decline-confirm"
      // Named by its question, a form is a form landmark (a group role is not allowed on a form).
      aria-labelledby={hintId}
      aria-busy={busy}
      tabIndex={-1}
    >
      <p id={hintId} className="hint">
        Decline this question? The client is told and is not charged.
      </p>
      <div className="row">
        <Button type="button" variant="secondary" size="sm" onClick={() => confirm(false)} disabled={busy}>
          Keep it
        </Button>
        <Button type="submit" variant="danger" size="sm" disabled={busy || locked}>
          {busy ? "Declining..." : "Yes, decline"}
        </Button>
      </div>
    </fetcher.Form>
  );
}

type SendProps = {
  /** Told when a send starts and ends (and when the form leaves). */
  onBusyChange?: (busy: boolean) => void;
  /** The question's other action is on its way: this one waits for its outcome. */
  locked?: boolean;
};

/**
 * One question's answer and decline forms, side by side: while one is on its way the other waits, so
 * each outcome is reported, and `sending` keeps a dialog around them open.
 */
export function useOneSendAtATime() {
  const [sending, setSending] = useState({ answer: false, decline: false });
  return {
    sending: sending.answer || sending.decline,
    answer: {
      locked: sending.decline,
      onBusyChange: (answer: boolean) => setSending((was) => ({ ...was, answer })),
    } satisfies SendProps,
    decline: {
      locked: sending.answer,
      onBusyChange: (decline: boolean) => setSending((was) => ({ ...was, decline })),
    } satisfies SendProps,
  };
}

/** Tells `onBusyChange` when `busy` changes, and that nothing is sending once the form leaves. */
function useReportBusy(busy: boolean, onBusyChange?: (busy: boolean) => void) {
  const report = useRef(onBusyChange);
  report.current = onBusyChange;
  useEffect(() => {
    report.current?.(busy);
  }, [busy]);
  useEffect(() => () => report.current?.(false), []);
}
