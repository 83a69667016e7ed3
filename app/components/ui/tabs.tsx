import {
  type ComponentPropsWithoutRef,
  createContext,
  type KeyboardEvent,
  useCallback,
  useContext,
  useId,
  useState,
} from "react";
import { cx } from "./cx";

/**
 * Tabs after the WAI-ARIA tabs pattern: a tablist of tabs with roving focus (arrow keys, Home, End;
 * a focused tab is selected), each controlling a tabpanel. Same API and data attributes as Radix
 * Tabs, which this replaced to keep about 10 KB of JavaScript off the public pages. Give TabsList an
 * aria-label describing the set.
 */
type TabsState = {
  value: string | undefined;
  select: (value: string) => void;
  idFor: (part: "trigger" | "content", value: string) => string;
};

const TabsContext = createContext<TabsState | null>(null);

function useTabs(component: string): TabsState {
  const state = useContext(TabsContext);
  if (!state) throw new Error(`${component} must be used inside <Tabs>`);
  return state;
}

type TabsProps = Omit<ComponentPropsWithoutRef<"div">, "defaultValue" | "dir"> & {
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
};

export function Tabs({ value, defaultValue, onValueChange, children, ...props }: TabsProps) {
  const [uncontrolled, setUncontrolled] = useState(defaultValue);
  const baseId = useId();
  const current = value ?? uncontrolled;
  const select = useCallback(
    (next: string) => {
      if (value === undefined) setUncontrolled(next);
      if (next !== current) onValueChange?.(next);
    },
    [value, current, onValueChange],
  );
  const idFor = useCallback(
    (part: "trigger" | "content", tab: string) => `${baseId}-${part}-${tab.replace(/\s+/g, "-")}`,
    [baseId],
  );
  return (
    <TabsContext.Provider value={{ value: current, select, idFor }}>
      <div data-orientation="horizontal" {...props}>
        {children}
      </div>
    </TabsContext.Provider>
  );
}

function focusTab(list: HTMLElement, key: string): HTMLElement | null {
  const tabs = [...list.querySelectorAll<HTMLElement>('[role="tab"]:not([disabled])')];
  const index = tabs.indexOf(document.activeElement as HTMLElement);
  if (tabs.length === 0 || index === -1) return null;
  const next =
    key === "Home"
      ? 0
      : key === "End"
        ? tabs.length - 1
        : (index + (key === "ArrowRight" ? 1 : -1) + tabs.length) % tabs.length;
  tabs[next].focus();
  return tabs[next];
}

export function TabsList({ className, onKeyDown, ...props }: ComponentPropsWithoutRef<"div">) {
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      className={cx("tabs-list", className)}
      onKeyDown={(event: KeyboardEvent<HTMLDivElement>) => {
        onKeyDown?.(event);
        if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
        const tab = focusTab(event.currentTarget, event.key);
        if (tab) {
          event.preventDefault();
          tab.click();
        }
      }}
      {...props}
    />
  );
}

export function TabsTrigger({
  className,
  value,
  disabled,
  onClick,
  ...props
}: ComponentPropsWithoutRef<"button"> & { value: string }) {
  const tabs = useTabs("TabsTrigger");
  const selected = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabs.idFor("trigger", value)}
      aria-selected={selected}
      aria-controls={tabs.idFor("content", value)}
      data-state={selected ? "active" : "inactive"}
      data-disabled={disabled ? "" : undefined}
      disabled={disabled}
      tabIndex={selected ? 0 : -1}
      className={cx("tabs-trigger", className)}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) tabs.select(value);
      }}
      {...props}
    />
  );
}

export function TabsContent({
  className,
  value,
  forceMount,
  children,
  ...props
}: ComponentPropsWithoutRef<"div"> & { value: string; forceMount?: boolean }) {
  const tabs = useTabs("TabsContent");
  const selected = tabs.value === value;
  return (
    <div
      role="tabpanel"
      id={tabs.idFor("content", value)}
      aria-labelledby={tabs.idFor("trigger", value)}
      data-state={selected ? "active" : "inactive"}
      hidden={!selected}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the WAI-ARIA tabs pattern makes the panel focusable so Tab reaches its content
      tabIndex={0}
      className={cx("tabs-content", className)}
      {...props}
    >
      {selected || forceMount ? children : null}
    </div>
  );
}
