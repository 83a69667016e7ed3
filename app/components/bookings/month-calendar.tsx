import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { cx } from "~/components/ui/cx";
import { addDays, addMonths, formatMonthTitle, monthGrid, monthOf } from "~/lib/slots";
import { formatUtcLongDate } from "~/lib/utc-dates";

const WEEKDAY_HEADERS = [
  ["Sun", "Sunday"],
  ["Mon", "Monday"],
  ["Tue", "Tuesday"],
  ["Wed", "Wednesday"],
  ["Thu", "Thursday"],
  ["Fri", "Friday"],
  ["Sat", "Saturday"],
] as const;

function spokenDate(date: string) {
  return formatUtcLongDate(`${date}T00:00:00Z`);
}

/**
 * A month of days to choose from: the booking screen's date picker (past days and days without
 * hours disabled) and the expert's calendar (a count of sessions per day). Keyboard: Tab reaches the
 * chosen day, arrow keys move by day and week, Page Up/Down by month, Home/End to the week's ends,
 * Enter or Space chooses. Disabled days stay reachable (announced as unavailable) but cannot be chosen.
 */
export function MonthCalendar({
  month,
  onMonthChange,
  selected,
  onSelect,
  today,
  isDisabled = () => false,
  renderDay,
  describeDay,
  minMonth,
  maxMonth,
  label,
  invalid = false,
  errorId,
}: {
  /** yyyy-MM */
  month: string;
  onMonthChange: (month: string) => void;
  selected: string | null;
  onSelect: (date: string) => void;
  /** yyyy-MM-dd, in the zone the calendar is shown in. */
  today: string;
  isDisabled?: (date: string) => boolean;
  /** Extra content under the day number (a count badge). */
  renderDay?: (date: string) => ReactNode;
  /** Extra words for screen readers ("2 sessions"). */
  describeDay?: (date: string) => string | null;
  minMonth?: string;
  maxMonth?: string;
  label: string;
  /** No date chosen where one is required: the form's focus-first-invalid lands on the Tab stop. */
  invalid?: boolean;
  errorId?: string;
}) {
  const days = monthGrid(month);
  const weeks: string[][] = [];
  for (let index = 0; index < days.length; index += 7) weeks.push(days.slice(index, index + 7));
  const inMonth = (date: string) => monthOf(date) === month;
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  const grid = useRef<HTMLTableElement>(null);

  // The day that takes the Tab stop: the one last focused in this month (so Tab and Shift+Tab leave
  // the grid from the day the arrow keys reached), else the chosen one, else the first day that can
  // be chosen (today when it can), else today, else the month's first.
  const [lastFocused, setLastFocused] = useState<string | null>(null);
  const choosable = (date: string) => inMonth(date) && date >= today && !isDisabled(date);
  const tabStop =
    lastFocused && inMonth(lastFocused)
      ? lastFocused
      : selected && inMonth(selected)
        ? selected
        : (days.find(choosable) ?? (inMonth(today) ? today : (days.find(inMonth) ?? days[0])));

  useEffect(() => {
    if (!focusTarget) return;
    grid.current?.querySelector<HTMLButtonElement>(`button[data-date="${focusTarget}"]`)?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  const canShow = (target: string) => (!minMonth || target >= minMonth) && (!maxMonth || target <= maxMonth);

  function moveTo(date: string) {
    const target = monthOf(date);
    if (!canShow(target)) return;
    if (target !== month) onMonthChange(target);
    setFocusTarget(date);
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, date: string) {
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    const moves: Record<string, () => string> = {
      ArrowLeft: () => addDays(date, -1),
      ArrowRight: () => addDays(date, 1),
      ArrowUp: () => addDays(date, -7),
      ArrowDown: () => addDays(date, 7),
      Home: () => addDays(date, -weekday),
      End: () => addDays(date, 6 - weekday),
      PageUp: () => `${addMonths(monthOf(date), -1)}-01`,
      PageDown: () => `${addMonths(monthOf(date), 1)}-01`,
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    moveTo(move());
  }

  const previous = addMonths(month, -1);
  const next = addMonths(month, 1);
  const titleId = `calendar-${label.replace(/\W+/g, "-").toLowerCase()}-title`;

  return (
    <div className="month-calendar">
      <div className="month-calendar__head">
        <button
          type="button"
          className="btn btn--ghost btn--sm"
          // aria-disabled, not disabled: a disabled button under the keyboard drops focus to the page.
          onClick={() => canShow(previous) && onMonthChange(previous)}
          aria-disabled={!canShow(previous)}
          aria-label={`Previous month, ${formatMonthTitle(previous)}`}
        >
          <span aria-hidden="true">‹</span>
        </button>
        <h3 id={titleId} className="month-calendar__title" aria-live="polite">
          {formatMonthTitle(month)}
        </h3>
        <button
          type="button"
          className="btn btn--ghost btn--sm"
          onClick={() => canShow(next) && onMonthChange(next)}
          aria-disabled={!canShow(next)}
          aria-label={`Next month, ${formatMonthTitle(next)}`}
        >
          <span aria-hidden="true">›</span>
        </button>
      </div>
      <table
        ref={grid}
        className="month-calendar__grid"
        aria-labelledby={titleId}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
      >
        <caption className="visually-hidden">{label}</caption>
        <thead>
          <tr>
            {WEEKDAY_HEADERS.map(([short, long]) => (
              <th key={short} scope="col" abbr={long}>
                {short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]}>
              {week.map((date) => {
                const disabled = isDisabled(date);
                const isSelected = date === selected;
                const extra = describeDay?.(date);
                const spoken = [
                  spokenDate(date),
                  date === today ? "today" : null,
                  extra,
                  disabled ? "unavailable" : null,
                ]
                  .filter(Boolean)
                  .join(", ");
                return (
                  <td key={date}>
                    <button
                      type="button"
                      data-date={date}
                      className={cx(
                        "calendar-day",
                        !inMonth(date) && "calendar-day--outside",
                        date === today && "calendar-day--today",
                        isSelected && "calendar-day--selected",
                        disabled && "calendar-day--disabled",
                      )}
                      tabIndex={date === tabStop ? 0 : -1}
                      aria-label={spoken}
                      // Read with whichever day has focus: the Tab stop, where a refused form puts it, or
                      // a day reached with the arrow keys.
                      aria-describedby={invalid ? errorId : undefined}
                      aria-pressed={isSelected}
                      aria-disabled={disabled || undefined}
                      aria-current={date === today ? "date" : undefined}
                      onKeyDown={(event) => onKeyDown(event, date)}
                      onFocus={() => setLastFocused(date)}
                      onClick={() => {
                        if (disabled) return;
                        if (!inMonth(date) && canShow(monthOf(date))) onMonthChange(monthOf(date));
                        onSelect(date);
                      }}
                    >
                      <span className="calendar-day__number">{Number(date.slice(8, 10))}</span>
                      {renderDay?.(date)}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
