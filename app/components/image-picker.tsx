import { type ChangeEvent, useEffect, useId, useRef, useState } from "react";
import { checkImageFile, IMAGE_ACCEPT_ATTRIBUTE } from "~/lib/images";
import { Button } from "./ui/button";
import { cx } from "./ui/cx";
import { ErrorList, type FieldErrors, Label } from "./ui/field";

/**
 * A file input for a picture with a live preview. The browser refuses what it can already tell is
 * wrong (type, size); the server checks the bytes again. `shape` sets the preview's proportions.
 */
export function ImagePicker({
  name,
  label,
  hint,
  currentUrl,
  shape,
  errors,
  onFileChange,
}: {
  name: string;
  label: string;
  hint: string;
  currentUrl?: string | null;
  shape: "square" | "banner";
  errors?: FieldErrors;
  onFileChange?: (file: File | null) => void;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);

  // Object URLs hold the file in memory until revoked.
  useEffect(() => {
    return () => {
      if (preview) URL.revokeObjectURL(preview);
    };
  }, [preview]);

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0] ?? null;
    if (!file) {
      setPreview(null);
      setLocalError(null);
      onFileChange?.(null);
      return;
    }
    const problem = checkImageFile(file);
    if (problem) {
      event.currentTarget.value = "";
      setPreview(null);
      setLocalError(problem);
      onFileChange?.(null);
      return;
    }
    setLocalError(null);
    setPreview(URL.createObjectURL(file));
    onFileChange?.(file);
  }

  function clear() {
    if (inputRef.current) inputRef.current.value = "";
    setPreview(null);
    setLocalError(null);
    onFileChange?.(null);
  }

  const shown = preview ?? currentUrl ?? null;
  const allErrors = [...(localError ? [localError] : []), ...(errors ?? [])];
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={cx("image-picker", `image-picker--${shape}`)}>
      <Label htmlFor={id}>{label}</Label>
      <div className="image-picker__body">
        <div className="image-picker__preview" aria-hidden={shown ? undefined : true}>
          {shown ? (
            <img
              src={shown}
              alt={
                preview ? `Preview of the chosen ${label.toLowerCase()}` : `Current ${label.toLowerCase()}`
              }
            />
          ) : (
            <span className="image-picker__placeholder">No image</span>
          )}
        </div>
        <div className="image-picker__controls">
          <input
            ref={inputRef}
            id={id}
            name={name}
            type="file"
            accept={IMAGE_ACCEPT_ATTRIBUTE}
            className="image-picker__input"
            aria-describedby={[hintId, allErrors.length ? errorId : null].filter(Boolean).join(" ")}
            aria-invalid={allErrors.length > 0 || undefined}
            onChange={onChange}
          />
          <p id={hintId} className="hint">
            {hint}
          </p>
          {preview ? (
            <Button variant="secondary" size="sm" onClick={clear}>
              Remove chosen image
            </Button>
          ) : null}
          <ErrorList id={errorId} errors={allErrors} />
        </div>
      </div>
    </div>
  );
}
