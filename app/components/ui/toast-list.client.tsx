import * as ToastPrimitive from "@radix-ui/react-toast";
import { dismissToast, TOAST_DURATION, TOAST_SWIPE_THRESHOLD, type ToastItem } from "./toast";

/** The toasts, rendered by Radix Toast (loaded lazily by Toaster in ./toast). */
export default function ToastList({ toasts }: { toasts: ToastItem[] }) {
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD}
      label="Notification"
    >
      {toasts.map((item) => (
        <ToastPrimitive.Root
          key={item.id}
          className="toast"
          data-variant={item.variant ?? "default"}
          open={item.open}
          duration={item.duration}
          type={item.variant === "destructive" ? "foreground" : "background"}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id);
          }}
          onEscapeKeyDown={(event) => {
            // A toast is the newest layer, so Radix gives it Escape first, even when focus is in a
            // dialog. Escape belongs to the dialog there: it closes, and the toast runs its time.
            const dialog = event.target instanceof Element ? event.target.closest(".dialog-content") : null;
            if (!dialog) return;
            event.preventDefault();
            dialog.querySelector<HTMLButtonElement>(":scope > [data-dialog-close]")?.click();
          }}
        >
          <div>
            <ToastPrimitive.Title className="toast__title">{item.title}</ToastPrimitive.Title>
            {item.description ? (
              <ToastPrimitive.Description className="toast__description">
                {item.description}
              </ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close className="toast__close" aria-label="Dismiss notification">
            <span aria-hidden="true">×</span>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="toast-viewport" />
    </ToastPrimitive.Provider>
  );
}
