import { type RefObject, useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { ANSWER_MESSAGES, AUDIO_UPLOAD_MAX_BYTES } from "~/schemas/questions";

type Phase = "idle" | "recording" | "recorded";

const RECORDING_TYPES = ["audio/webm;codecs=opus", "audio/webm", "audio/ogg;codecs=opus", "audio/mp4"];
const EXTENSIONS: Record<string, string> = {
  "audio/webm": "webm",
  "audio/ogg": "ogg",
  "audio/mp4": "m4a",
  "audio/mpeg": "mp3",
  "audio/wav": "wav",
};

/**
 * Recordings are made at this rate and stop at this length, so one always fits the 25 MB upload limit
 * (24 minutes of 128 kbit/s is 23 MB): a longer one would be refused on sending and lost.
 */
const RECORDING_BITS_PER_SECOND = 128_000;
export const MAX_RECORDING_SECONDS = 24 * 60;

const pad = (value: number) => String(value).padStart(2, "0");
/** minutes:seconds, as the recorder's timer shows it. */
export const formatTimer = (seconds: number) => `${pad(Math.floor(seconds / 60))}:${pad(seconds % 60)}`;

function fileFor(blob: Blob): File {
  const type = blob.type.split(";")[0] || "audio/webm";
  return new File([blob], `audio.${EXTENSIONS[type] ?? "webm"}`, { type });
}

/**
 * Records an audio answer in the browser (SPEC.md section 4: idle, recording with a minutes:seconds
 * timer, recorded with play and pause, then record again or upload a different file), or takes an
 * uploaded audio file. The server checks the bytes again and stores the true type.
 */
export function AudioRecorder({
  onChange,
  disabled = false,
}: {
  onChange: (file: File | null) => void;
  disabled?: boolean;
}) {
  const [phase, setPhase] = useState<Phase>("idle");
  const [seconds, setSeconds] = useState(0);
  const [url, setUrl] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [supported, setSupported] = useState(true);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const rootRef = useRef<HTMLDivElement | null>(null);
  const playRef = useRef<HTMLButtonElement | null>(null);
  const startRef = useRef<HTMLButtonElement | null>(null);
  const stopRef = useRef<HTMLButtonElement | null>(null);
  const startedAtRef = useRef(0);
  /** The button that takes over from the one just pressed, which the new phase takes away. */
  const handOffRef = useRef<RefObject<HTMLButtonElement | null> | null>(null);
  // Said to screen readers only: the timer and the buttons show it.
  const [said, setSaid] = useState("");
  const fileInputRef = useRef<HTMLInputElement | null>(null);
  const uploadId = useId();
  const errorId = `${uploadId}-error`;

  useEffect(() => {
    setSupported(typeof MediaRecorder !== "undefined" && Boolean(navigator.mediaDevices?.getUserMedia));
  }, []);

  useEffect(() => {
    if (phase !== "recording") return;
    // From the clock, not by counting ticks: a background tab's timers may run once a minute.
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - startedAtRef.current) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [phase]);

  // Start, Stop (pressed, or at the time limit) and Record again take their own button away: focus
  // goes to the one that replaces it (Stop, Play, Start), unless the person has moved on to another control.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once each phase is on the page, by design
  useEffect(() => {
    const next = handOffRef.current;
    if (!next) return;
    handOffRef.current = null;
    const active = document.activeElement;
    const movedOn =
      active instanceof HTMLElement &&
      !rootRef.current?.contains(active) &&
      active.matches("input, textarea, select, button, a[href]");
    if (!movedOn) next.current?.focus();
  }, [phase]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: stopRecording only reads a ref
  useEffect(() => {
    if (phase === "recording" && seconds >= MAX_RECORDING_SECONDS) {
      setNotice(ANSWER_MESSAGES.recordingFull);
      stopRecording();
    }
  }, [phase, seconds]);

  useEffect(() => {
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [url]);

  useEffect(() => {
    return () => {
      for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    };
  }, []);

  function acceptFile(file: File) {
    setUrl(URL.createObjectURL(file));
    setPhase("recorded");
    setPlaying(false);
    onChange(file);
  }

  async function startRecording() {
    setError(null);
    setNotice(null);
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setError(ANSWER_MESSAGES.microphone);
      return;
    }
    streamRef.current = stream;
    const mimeType = RECORDING_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
    const recorder = new MediaRecorder(stream, {
      ...(mimeType ? { mimeType } : {}),
      audioBitsPerSecond: RECORDING_BITS_PER_SECOND,
    });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      streamRef.current = null;
      const file = fileFor(new Blob(chunks, { type: recorder.mimeType || mimeType || "audio/webm" }));
      // Should the browser not keep to the rate: say so now, not after a refused upload.
      if (file.size > AUDIO_UPLOAD_MAX_BYTES) {
        setNotice(null);
        setError(ANSWER_MESSAGES.audioTooLarge);
        setPhase("idle");
        return;
      }
      handOffRef.current = playRef;
      setSaid("Recording stopped.");
      acceptFile(file);
    };
    recorderRef.current = recorder;
    // One piece at the end (no timeslice): Chrome then writes the recording's duration, for seeking.
    recorder.start();
    startedAtRef.current = Date.now();
    setSeconds(0);
    handOffRef.current = stopRef;
    setSaid("Recording started.");
    setPhase("recording");
    onChange(null);
  }

  function stopRecording() {
    recorderRef.current?.stop();
    recorderRef.current = null;
  }

  function reset() {
    handOffRef.current = startRef;
    setSaid("Recording discarded.");
    audioRef.current?.pause();
    setUrl(null);
    setPhase("idle");
    setSeconds(0);
    setPlaying(false);
    setError(null);
    setNotice(null);
    onChange(null);
    if (fileInputRef.current) fileInputRef.current.value = "";
  }

  function chooseFile(file: File | undefined) {
    setError(null);
    setNotice(null);
    if (!file) return;
    const refusal = !file.type.startsWith("audio/")
      ? ANSWER_MESSAGES.notAudio
      : file.size === 0
        ? ANSWER_MESSAGES.emptyAudio
        : file.size > AUDIO_UPLOAD_MAX_BYTES
          ? ANSWER_MESSAGES.audioTooLarge
          : null;
    if (refusal) {
      setError(refusal);
      if (fileInputRef.current) fileInputRef.current.value = "";
      return;
    }
    acceptFile(file);
  }

  return (
    <div className="audio-recorder stack" data-phase={phase} ref={rootRef}>
      {phase === "idle" ? (
        supported ? (
          <Button
            ref={startRef}
            type="button"
            variant="secondary"
            onClick={startRecording}
            disabled={disabled}
          >
            <span className="record-dot" aria-hidden="true" /> Start recording
          </Button>
        ) : (
          <p className="hint">Recording is not available in this browser: upload an audio file instead.</p>
        )
      ) : null}

      {phase === "recording" ? (
        <div className="row">
          <span
            className="recording-indicator"
            role="timer"
            aria-label={`Recording, ${formatTimer(seconds)}`}
          >
            <span className="record-dot record-dot--live" aria-hidden="true" /> Recording{" "}
            {formatTimer(seconds)}
          </span>
          <Button ref={stopRef} type="button" variant="danger" size="sm" onClick={stopRecording}>
            Stop
          </Button>
        </div>
      ) : null}

      {phase === "recorded" && url ? (
        <div className="stack">
          {/* biome-ignore lint/a11y/useMediaCaption: the expert's own recording, played back before sending */}
          <audio
            ref={audioRef}
            src={url}
            controls
            className="audio-player"
            onPlay={() => setPlaying(true)}
            onPause={() => setPlaying(false)}
            onEnded={() => setPlaying(false)}
          />
          <div className="row">
            {playing ? (
              <Button type="button" variant="secondary" size="sm" onClick={() => audioRef.current?.pause()}>
                Pause
              </Button>
            ) : (
              <Button
                ref={playRef}
                type="button"
                variant="secondary"
                size="sm"
                onClick={() => void audioRef.current?.play()}
              >
                Play
              </Button>
            )}
            <Button type="button" variant="ghost" size="sm" onClick={reset} disabled={disabled}>
              Record again
            </Button>
          </div>
        </div>
      ) : null}

      {phase === "recording" ? null : (
        <div className="field">
          <label htmlFor={uploadId} className="label">
            {phase === "recorded" ? "Upload a different file" : "Or upload an audio file"}
          </label>
          <input
            ref={fileInputRef}
            id={uploadId}
            type="file"
            accept="audio/*"
            className="input file-input"
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => chooseFile(event.currentTarget.files?.[0])}
          />
        </div>
      )}
      {/* Always on the page, so what it says later is announced. */}
      <p className={notice ? "notice" : "audio-recorder__status"} role="status">
        {notice ?? <span className="visually-hidden">{said}</span>}
      </p>
      {error ? (
        <p id={errorId} className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
