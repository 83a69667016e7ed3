import { useId } from "react";

export type ChartSeries = { key: string; label: string; tone: "primary" | "accent" | "warm" };
export type ChartDatum = { label: string; longLabel?: string; values: Record<string, number> };

/** A step of 1, 2, 2.5 or 5 times a power of ten, so the axis reads in round numbers. */
export function niceStep(rough: number): number {
  if (!(rough > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  for (const factor of [1, 2, 2.5, 5, 10]) {
    if (factor * magnitude >= rough) return factor * magnitude;
  }
  return 10 * magnitude;
}

/**
 * The axis of a chart whose tallest bar is `max`: a round top and the ticks up to it. With a `unit`
 * every tick is a whole number of units (counts step by whole numbers, cents by whole dollars), so
 * an axis never reads "0.25 questions" or "$0" twice.
 */
export function chartScale(max: number, unit = 0) {
  const nice = niceStep(max / 4);
  const step = unit > 0 ? Math.max(unit, Math.ceil(nice / unit) * unit) : nice;
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, index) => index * step);
  return { top, ticks };
}

/**
 * A stacked bar chart: the bars are an inline SVG stretched to the plot (no chart library, a few
 * hundred bytes), the labels are HTML, so text stays readable from a phone to a wide screen. The
 * figure has a text summary for screen readers; pair it with a table for exact values.
 */
export function BarChart({
  title,
  series,
  data,
  formatValue,
  formatTick = formatValue,
  unit,
}: {
  title: string;
  series: ChartSeries[];
  data: ChartDatum[];
  formatValue: (value: number) => string;
  formatTick?: (value: number) => string;
  /** The smallest step the axis may take (1 for counts, 100 for cents shown in dollars). */
  unit?: number;
}) {
  const id = useId();
  const totals = data.map((datum) => series.reduce((sum, s) => sum + (datum.values[s.key] ?? 0), 0));
  const { top, ticks } = chartScale(Math.max(0, ...totals), unit);
  const slot = 100 / Math.max(1, data.length);
  const barWidth = slot * 0.56;
  const pct = (value: number) => (value / top) * 100;
  const summary = data
    .map((datum, index) => `${datum.longLabel ?? datum.label}: ${formatValue(totals[index])}`)
    .join("; ");

  return (
    <figure className="bar-chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="visually-hidden">
        {title}. {summary}.
      </figcaption>
      <div className="bar-chart__frame" aria-hidden="true">
        <div className="bar-chart__y">
          {ticks.map((tick) => (
            <span key={tick} className="bar-chart__tick" style={{ bottom: `${pct(tick)}%` }}>
              {formatTick(tick)}
            </span>
          ))}
        </div>
        <div className="bar-chart__plot">
          <svg
            viewBox="0 0 100 100"
            preserveAspectRatio="none"
            className="bar-chart__svg"
            focusable="false"
            aria-hidden="true"
          >
            {ticks.map((tick) => (
              <line
                key={tick}
                className="bar-chart__gridline"
                x1={0}
                x2={100}
                y1={100 - pct(tick)}
                y2={100 - pct(tick)}
                vectorEffect="non-scaling-stroke"
              />
            ))}
            {data.map((datum, index) => {
              const x = index * slot + (slot - barWidth) / 2;
              let base = 0;
              return (
                <g key={datum.longLabel ?? datum.label}>
                  <title>{`${datum.longLabel ?? datum.label}: ${formatValue(totals[index])}`}</title>
                  {series.map((s) => {
                    const value = datum.values[s.key] ?? 0;
                    if (value <= 0) return null;
                    const height = Math.max(0.6, pct(value));
                    const rect = (
                      <rect
                        key={s.key}
                        className={`bar-chart__bar bar-chart__bar--${s.tone}`}
                        x={x}
                        width={barWidth}
                        y={100 - pct(base) - height}
                        height={height}
                      />
                    );
                    base += value;
                    return rect;
                  })}
                </g>
              );
            })}
          </svg>
        </div>
        <div
          className="bar-chart__x"
          data-dense={data.length > 8 || undefined}
          style={{ gridTemplateColumns: `repeat(${data.length}, minmax(0, 1fr))` }}
        >
          {data.map((datum) => (
            <span key={datum.longLabel ?? datum.label} className="bar-chart__label">
              {datum.label}
            </span>
          ))}
        </div>
      </div>
      {series.length > 1 ? (
        <div className="bar-chart__legend" aria-hidden="true">
          {series.map((s) => (
            <span key={s.key} className="bar-chart__legend-item">
              <span className={`bar-chart__swatch bar-chart__swatch--${s.tone}`} />
              {s.label}
            </span>
          ))}
        </div>
      ) : null}
    </figure>
  );
}
