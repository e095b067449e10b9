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
  /** Which of the points are saves (not the rate carried in from before the range, nor held until now). */
  saves: number[];
  /** The range asked for, in seconds: the axis spans it even where the currency has fewer saves. */
  from: number;
  to: number;
}

const HEIGHT = 240;

/**
 * The rate axis spans the rates with a margin, not from zero: a change of a few percent stays visible, and a rate
 * that held all along (one save) sits mid-chart instead of on an edge.
 */
export function rateRange(rates: number[]): [number, number] {
  const min = Math.min(...rates);
  const max = Math.max(...rates);
  const pad = max > min ? (max - min) * 0.15 : Math.max(max * 0.05, 1);
  return [Math.max(0, Math.floor(min - pad)), Math.ceil(max + pad)];
}

/** A dashed line and «امروز» at today: with dates right to left a reader needs to see where now is. */
function drawToday(u: uPlot, color: string, font: string) {
  const [min, max] = [u.scales.x?.min ?? 0, u.scales.x?.max ?? 0];
  const now = Math.min(Date.now() / 1000, max);
  if (now < min) return;
  // On a pixel's centre, so a one-pixel line is one solid column, not two faint ones.
  const x = Math.round(u.valToPos(now, 'x', true)) + 0.5;
  const { ctx } = u;
  const { top, height } = u.bbox;
  ctx.save();
  ctx.strokeStyle = color;
  ctx.setLineDash([4 * devicePixelRatio, 4 * devicePixelRatio]);
  ctx.lineWidth = devicePixelRatio;
  ctx.beginPath();
  ctx.moveTo(x, top);
  ctx.lineTo(x, top + height);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = color;
  ctx.font = font.replace(/^(\d+)px/, (_m, px: string) => `${Number(px) * devicePixelRatio}px`);
  ctx.textBaseline = 'top';
  ctx.textAlign = x > u.bbox.left + u.bbox.width / 2 ? 'right' : 'left';
  ctx.fillText('امروز', x + (ctx.textAlign === 'left' ? 4 : -4) * devicePixelRatio, top + 2 * devicePixelRatio);
  ctx.restore();
}

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
    // Radix gives colours as display-p3 where the screen can show them, so a hex alpha cannot be appended.
    const fill = style.getPropertyValue('--accent-a3').trim() || 'rgba(62, 99, 221, 0.12)';
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
        scales: {
          // A little room past today, so today's line and a rate saved today are not on the edge.
          x: { time: true, dir: -1, range: () => [series.from, series.to + (series.to - series.from) * 0.04] },
          y: { range: () => rateRange(series.rates) },
        },
        series: [
          {},
          {
            stroke: accent,
            width: 2,
            fill,
            paths: uPlot.paths.stepped!({ align: 1 }),
            // Each save is a dot: a rate saved today is a dot at the today line, not a line too short to see.
            points: { show: series.saves.length <= 60, filter: series.saves, size: 7, fill: accent, stroke: accent },
          },
        ],
        hooks: { draw: [(u) => drawToday(u, text, font)] },
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
