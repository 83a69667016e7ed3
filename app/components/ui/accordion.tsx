import * as AccordionPrimitive from "@radix-ui/react-accordion";
import type { ComponentPropsWithoutRef, ReactNode } from "react";
import { cx } from "./cx";

/** Single-open and collapsible (SPEC.md's FAQ). */
export function Accordion({
  className,
  children,
  defaultValue,
}: {
  className?: string;
  children: ReactNode;
  defaultValue?: string;
}) {
  return (
    <AccordionPrimitive.Root
      type="single"
      collapsible
      defaultValue={defaultValue}
      className={cx("accordion", className)}
    >
      {children}
    </AccordionPrimitive.Root>
  );
}

export function AccordionItem({
  className,
  ...props
}: ComponentPropsWithoutRef<typeof AccordionPrimitive.Item>) {
  return <AccordionPrimitive.Item className={cx("accordion-item", className)} {...props} />;
}

export function AccordionTrigger({ children }: { children: ReactNode }) {
  return (
    <AccordionPrimitive.Header className="accordion-header">
      <AccordionPrimitive.Trigger className="accordion-trigger">
        {children}
        <svg className="accordion-chevron" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
          <path d="M3 6l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </AccordionPrimitive.Trigger>
    </AccordionPrimitive.Header>
  );
}

export function AccordionContent({ children }: { children: ReactNode }) {
  return (
    <AccordionPrimitive.Content className="accordion-content">
      <div className="accordion-content__inner">{children}</div>
    </AccordionPrimitive.Content>
  );
}
