import {
  type ComponentPropsWithoutRef,
  createContext,
  type ReactNode,
  useContext,
  useId,
  useState,
} from "react";
import { cx } from "./cx";

/**
 * An accordion after the WAI-ARIA pattern: each header holds a button (aria-expanded,
 * aria-controls) for its region; one item open at a time and collapsible (SPEC.md's FAQ); Up, Down,
 * Home and End move between the headers. Same API and data attributes as the Radix Accordion it
 * replaced, to keep about 10 KB of JavaScript off the home page.
 */
type AccordionState = { open: string | null; toggle: (value: string) => void };
const AccordionContext = createContext<AccordionState | null>(null);
const ItemContext = createContext<{ value: string; baseId: string } | null>(null);

function useAccordion() {
  const accordion = useContext(AccordionContext);
  const item = useContext(ItemContext);
  if (!accordion || !item) throw new Error("Accordion parts must be used inside <AccordionItem>");
  const open = accordion.open === item.value;
  return { ...item, open, toggle: () => accordion.toggle(item.value) };
}

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
  const [open, setOpen] = useState<string | null>(defaultValue ?? null);
  return (
    <AccordionContext.Provider
      value={{ open, toggle: (value) => setOpen((current) => (current === value ? null : value)) }}
    >
      <div className={cx("accordion", className)} data-orientation="vertical">
        {children}
      </div>
    </AccordionContext.Provider>
  );
}

export function AccordionItem({
  className,
  value,
  ...props
}: ComponentPropsWithoutRef<"div"> & { value: string }) {
  const baseId = useId();
  const accordion = useContext(AccordionContext);
  return (
    <ItemContext.Provider value={{ value, baseId }}>
      <div
        className={cx("accordion-item", className)}
        data-state={accordion?.open === value ? "open" : "closed"}
        {...props}
      />
    </ItemContext.Provider>
  );
}

export function AccordionTrigger({ children }: { children: ReactNode }) {
  const { baseId, open, toggle } = useAccordion();
  return (
    <h3 className="accordion-header" data-state={open ? "open" : "closed"}>
      <button
        type="button"
        id={`${baseId}-trigger`}
        className="accordion-trigger"
        aria-expanded={open}
        aria-controls={`${baseId}-content`}
        data-state={open ? "open" : "closed"}
        onClick={toggle}
        onKeyDown={(event) => {
          if (!["ArrowDown", "ArrowUp", "Home", "End"].includes(event.key)) return;
          const root = event.currentTarget.closest(".accordion");
          const triggers = [...(root?.querySelectorAll<HTMLButtonElement>(".accordion-trigger") ?? [])];
          const index = triggers.indexOf(event.currentTarget);
          const next =
            event.key === "Home"
              ? 0
              : event.key === "End"
                ? triggers.length - 1
                : (index + (event.key === "ArrowDown" ? 1 : -1) + triggers.length) % triggers.length;
          event.preventDefault();
          triggers[next]?.focus();
        }}
      >
        {children}
        <svg className="accordion-chevron" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
          <path d="M3 6l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </h3>
  );
}

export function AccordionContent({ children }: { children: ReactNode }) {
  const { baseId, open } = useAccordion();
  return (
    <section
      id={`${baseId}-content`}
      aria-labelledby={`${baseId}-trigger`}
      className="accordion-content"
      data-state={open ? "open" : "closed"}
      hidden={!open}
    >
      <div className="accordion-content__inner">{children}</div>
    </section>
  );
}
