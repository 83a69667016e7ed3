import { useEffect, useState } from "react";
import { Button, type ButtonVariant } from "./ui/button";
import { toast } from "./ui/toast";

/** SPEC.md section 9: the copy confirmation shows for 2 seconds. */
export const COPIED_MS = 2000;

/** Copies text to the clipboard; falls back to a hidden textarea where the Clipboard API is missing. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Fall through to the older way (e.g. the page is not focused or not a secure context).
  }
  // Selecting the hidden field takes the focus: it goes back to where it was (the Copy button), or
  // a keyboard user would continue from the top of the page.
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  area.remove();
  previous?.focus({ preventScroll: true });
  return copied;
}

/** "Copy" that reads "Copied" for 2 s after copying, and says so to screen readers. */
export function CopyButton({
  text,
  label = "Copy",
  copiedLabel = "Copied",
  variant = "secondary",
  hint,
  onCopied,
}: {
  text: string;
  label?: string;
  copiedLabel?: string;
  variant?: ButtonVariant;
  /**
   * Words said after the visible label, not shown ("profile link"): the name keeps what is shown,
   * "Copy" or "Copied", so speech input can say it (WCAG 2.5.3).
   */
  hint?: string;
  onCopied?: () => void;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      variant={variant}
      onClick={async () => {
        if (await copyText(text)) {
          setCopied(true);
          if (onCopied) onCopied();
          else toast({ title: "Copied to clipboard" });
        } else {
          toast({
            title: "Copy failed",
            description: "Please select the text and copy it yourself.",
            variant: "destructive",
          });
        }
      }}
    >
      <span aria-live="polite">{copied ? copiedLabel : label}</span>
      {hint ? <span className="visually-hidden">{` ${hint}`}</span> : null}
    </Button>
  );
}
