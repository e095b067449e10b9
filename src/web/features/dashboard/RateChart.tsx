/**
 * A currency's rate over time, drawn by uPlot (decision 029) on a canvas. This file and uPlot load only when a
 * customer opens a currency's chart (RatePanel is lazy): the first page does not carry them. The rate is a step line
 * (a rate holds until the next save), time runs right to left as the page reads, the rate axis stands on the right,
 * dates are Jalali (the chosen calendar) and every number is in Persian digits. The canvas is hidden from screen
 * readers: its summary is the figure's label, and the numbers are the panel's table.
 */
import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { displayDate } from '../../../shared/format/dates';
import { formatNumber } from '../../../shared/format';
import { calendarAtom } from '../../lib/calendar';

export interface RateSeries {
  /** Seconds since the epoch, ascending. */
  times: number[];
  rates: number[];
  /** The range asked for, in seconds: the axis spans it even where the currency has fewer saves. */
  from: number;
  to: number;
}

const HEIGHT = 240;

/** A Jalali (or Gregorian) axis label: day and month for a month or a season, month and year for a year. */
function axisDate(seconds: number, calendar: 'fa' | 'en', longRange: boolean): string {
  const parts = displayDate(seconds * 1000, 'longDate', calendar).split(' ');
  return (longRange ? parts.slice(1) : parts.slice(0, 2)).join(' ');
}

export function RateChart({ series, days, label }: { series: RateSeries; days: number; label: string }) {
  const calendar = useAtomValue(calendarAtom);
  const holder = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = holder.current;
    if (!el) return;
    const style = getComputedStyle(el);
    const font = `12px ${style.getPropertyValue('--app-font').trim() || 'sans-serif'}`;
    const accent = style.getPropertyValue('--accent-9').trim() || '#3e63dd';
    const grid = style.getPropertyValue('--gray-a4').trim() || '#e5e5e5';
    const text = style.getPropertyValue('--gray-11').trim() || '#555';
    const longRange = days > 90;
    const axis = { font, stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 200),
        height: HEIGHT,
        legend: { show: false },
        cursor: { y: false, points: { show: false } },
        // Right to left: the oldest day at the right edge, today at the left.
        scales: { x: { time: true, dir: -1, range: () => [series.from, series.to] } },
        series: [
          {},
          {
            stroke: accent,
            width: 2,
            fill: `${accent}22`,
            paths: uPlot.paths.stepped!({ align: 1 }),
            points: { show: false },
          },
        ],
        axes: [
          { ...axis, space: 72, values: (_u, splits) => splits.map((s) => axisDate(s, calendar, longRange)) },
          { ...axis, side: 1, size: 84, space: 36, values: (_u, splits) => splits.map((v) => formatNumber(v)) },
        ],
      },
      [series.times, series.rates],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 200), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, days, calendar]);

  return (
    <figure className="rate-chart" role="img" aria-label={label} data-testid="rate-chart">
      <div ref={holder} dir="ltr" aria-hidden />
    </figure>
  );
}
