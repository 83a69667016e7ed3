import * as TooltipPrimitive from "@radix-ui/react-tooltip";
import type { ReactNode } from "react";

/**
 * SPEC.md section 9: tooltips open after 700 ms; moving between triggers within 300 ms skips the delay.
 * Every Tooltip brings its own provider with these delays, so the root layout (and every page's
 * JavaScript) need not carry Radix's tooltip code; wrap a group of tooltips in one provider to share
 * the skip delay between them.
 */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <TooltipPrimitive.Provider delayDuration={700} skipDelayDuration={300}>
      {children}
    </TooltipPrimitive.Provider>
  );
}

/**
 * A hint on hover and keyboard focus. `children` must be a single focusable element (it becomes the
 * trigger); the tip is supplementary, so never put the only label of a control in it.
 */
export function Tooltip({
  content,
  children,
  side = "top",
}: {
  content: ReactNode;
  children: ReactNode;
  side?: "top" | "right" | "bottom" | "left";
}) {
  return (
    <TooltipProvider>
      <TooltipPrimitive.Root>
        <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
        <TooltipPrimitive.Portal>
          <TooltipPrimitive.Content className="tooltip" side={side} sideOffset={6} collisionPadding={8}>
            {content}
            <TooltipPrimitive.Arrow className="tooltip__arrow" />
          </TooltipPrimitive.Content>
        </TooltipPrimitive.Portal>
      </TooltipPrimitive.Root>
    </TooltipProvider>
  );
}
