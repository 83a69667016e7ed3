import * as DialogPrimitive from "@radix-ui/react-dialog";
import { type ComponentPropsWithoutRef, type ReactNode, useRef } from "react";
import { cx } from "./cx";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

type DialogContentProps = ComponentPropsWithoutRef<typeof DialogPrimitive.Content> & {
  wide?: boolean;
  /** Hide the corner close button (e.g. confirmations that must be answered). */
  hideClose?: boolean;
  /** Clicking the backdrop does not close it (SPEC.md's delete-account confirmation). */
  dismissOnOutsideClick?: boolean;
};

/**
 * Modal content with overlay, focus trap and Escape to close. Always give it a DialogTitle. Closing
 * puts focus back where it was when the dialog opened, with or without a DialogTrigger (Radix alone
 * only returns it to a Trigger, so a dialog opened from a row's button left focus on the page body).
 */
export function DialogContent({
  className,
  children,
  wide,
  hideClose,
  dismissOnOutsideClick = true,
  onPointerDownOutside,
  onInteractOutside,
  onOpenAutoFocus,
  onCloseAutoFocus,
  onKeyDownCapture,
  ...props
}: DialogContentProps) {
  const opener = useRef<HTMLElement | null>(null);
  const body = useRef<HTMLDivElement | null>(null);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="dialog-overlay" />
      <DialogPrimitive.Content
        className={cx("dialog-content", wide && "dialog-content--wide", className)}
        onPointerDownOutside={(event) => {
          if (!dismissOnOutsideClick) event.preventDefault();
          onPointerDownOutside?.(event);
        }}
        onInteractOutside={(event) => {
          if (!dismissOnOutsideClick) event.preventDefault();
          onInteractOutside?.(event);
        }}
        onOpenAutoFocus={(event) => {
          // Focus has not moved into the dialog yet: this is the element that opened it.
          opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          // Focus starts on the first control, as ever, not on a body that scrolls (marked just below).
          if (body.current) body.current.tabIndex = -1;
          onOpenAutoFocus?.(event);
          requestAnimationFrame(() => body.current && markScrollable(body.current));
        }}
        onKeyDownCapture={(event) => {
          if (body.current) markScrollable(body.current);
          onKeyDownCapture?.(event);
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          const target = opener.current;
          if (event.defaultPrevented || !target || target === document.body || !target.isConnected) return;
          event.preventDefault();
          target.focus();
        }}
        {...props}
      >
        {/* The body scrolls, not the frame, so the close button stays in view over a long text. It
            takes focus from a click on its text, and from Tab while it scrolls, so the keyboard
            (PageDown, End...) scrolls it. */}
        <div ref={body} className="dialog-body" tabIndex={-1}>
          {children}
        </div>
        {/* data-dialog-close: what Escape presses when a toast's layer sits above this dialog
            (toast-list.client.tsx); hidden where the dialog shows no close button. */}
        {hideClose ? (
          <DialogPrimitive.Close hidden data-dialog-close />
        ) : (
          <DialogPrimitive.Close
            className="btn btn--ghost btn--sm dialog-close"
            aria-label="Close"
            data-dialog-close
          >
            <span aria-hidden="true">×</span>
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/**
 * While the body scrolls it is a Tab stop, a region named by the dialog's title: a long text with no
 * control in it (a question's details) could not be scrolled from the keyboard. Checked when the
 * dialog opens and before each key, as what it holds can change (tabs, errors).
 */
function markScrollable(body: HTMLElement) {
  const scrolls = body.scrollHeight > body.clientHeight + 1;
  const title = body.parentElement?.getAttribute("aria-labelledby");
  body.tabIndex = scrolls ? 0 : -1;
  if (scrolls && title) {
    body.setAttribute("role", "region");
    body.setAttribute("aria-labelledby", title);
  } else {
    body.removeAttribute("role");
    body.removeAttribute("aria-labelledby");
  }
}

export function DialogTitle({ className, ...props }: ComponentPropsWithoutRef<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cx("dialog-title", className)} {...props} />;
}

export function DialogDescription({
  className,
  ...props
}: ComponentPropsWithoutRef<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cx("dialog-description", className)} {...props} />;
}

export function DialogFooter({ children }: { children: ReactNode }) {
  return <div className="dialog-footer">{children}</div>;
}
