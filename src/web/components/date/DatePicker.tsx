/**
 * A month calendar in a popover beside a date field: Jalali weeks from Saturday with Persian month names, or
 * Gregorian weeks from Sunday, Persian digits in both. Month and year selects reach a birth date decades back
 * quickly. Keyboard: arrows move a day (right is earlier: the grid is right to left) or a week, Page Up/Down a
 * month (with Shift a year), Home/End the week's ends, Enter picks, Escape closes; focus then returns to the field.
 */
import { CalendarIcon, ChevronLeftIcon, ChevronRightIcon } from '@radix-ui/react-icons';
import { Flex, IconButton, Popover } from '@radix-ui/themes';
import { type KeyboardEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { type CalendarKind, weekStartsOn } from '../../../shared/calendar';
import {
  addDays,
  addMonths,
  type CalendarParts,
  type GridDay,
  isoOfParts,
  MONTH_NAMES,
  monthGrid,
  partsOfIso,
  persianWeekdayNames,
  todayIso,
  weekdayInitials,
  yearBounds,
} from '../../../shared/calendar/month-grid';
import { toPersianDigits } from '../../../shared/digits';
import './DatePicker.css';

export interface DateRange {
  /** Earliest and latest Gregorian days that can be picked ('YYYY-MM-DD'); unset: about 120 years back, 30 on. */
  min?: string | undefined;
  max?: string | undefined;
}

const ISO = /^\d{4}-\d{2}-\d{2}$/;
const clamp = (iso: string, { min, max }: DateRange) => (min && iso < min ? min : max && iso > max ? max : iso);

function safeParts(iso: string, calendar: CalendarKind): CalendarParts | null {
  try {
    return partsOfIso(iso, calendar);
  } catch {
    return null;
  }
}

/** The years the select offers: the range's years, else 120 back and 30 on from today, within the calendar. */
function yearsOf(calendar: CalendarKind, range: DateRange, shown: number): number[] {
  const thisYear = safeParts(todayIso(), calendar)?.year ?? shown;
  const bounds = yearBounds(calendar);
  const from = Math.max(bounds.min, (range.min && safeParts(range.min, calendar)?.year) || thisYear - 120);
  const to = Math.min(bounds.max, (range.max && safeParts(range.max, calendar)?.year) || thisYear + 30);
  const first = Math.min(from, shown);
  return Array.from({ length: Math.max(to, shown) - first + 1 }, (_, i) => first + i);
}

/** 0 = Sunday … 6 = Saturday of a Gregorian day. */
const weekdayOf = (iso: string) => new Date(`${iso}T00:00:00Z`).getUTCDay();

const persian = (n: number) => toPersianDigits(n);

/** 'پنج‌شنبه ۱۵ شهریور ۱۳۷۵': what a screen reader says for a day. */
function dayLabel(d: GridDay, calendar: CalendarKind): string {
  const weekday = persianWeekdayNames('en')[d.weekday]; // the Sunday-first list, indexed like d.weekday
  return `${weekday} ${persian(d.day)} ${MONTH_NAMES[calendar][d.month - 1]} ${persian(d.year)}`;
}

/** Position of a weekday (0 = Sunday) in the calendar's week. */
const weekIndex = (weekday: number, calendar: CalendarKind) => (weekday - weekStartsOn(calendar) + 7) % 7;

export function DatePicker({
  calendar,
  value,
  onPick,
  range,
  fieldRef,
  disabled,
  testId,
  opensOn,
}: {
  calendar: CalendarKind;
  /** The field's stored value: a Gregorian day, '' or invalid text (then the picker opens on today). */
  value: string;
  onPick: (iso: string) => void;
  range: DateRange;
  /** Where focus returns when the picker closes. */
  fieldRef: RefObject<HTMLInputElement | null>;
  disabled?: boolean | undefined;
  testId?: string | undefined;
  /** The day an empty field's picker opens on (a birth date's: decades back); today when unset. */
  opensOn?: string | undefined;
}) {
  const [open, setOpen] = useState(false);
  const [focused, setFocused] = useState(() => todayIso());
  const grid = useRef<HTMLTableElement>(null);
  const moved = useRef(false);

  const view = safeParts(focused, calendar) ?? safeParts(todayIso(), calendar)!;
  const today = todayIso();
  const inRange = (iso: string) => clamp(iso, range) === iso;

  // Keyboard moves and month changes made from the grid keep focus on the focused day.
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`[data-iso="${focused}"]`)?.focus();
  }, [focused]);

  const openChange = (next: boolean) => {
    if (next) setFocused(clamp(ISO.test(value) && safeParts(value, calendar) ? value : (opensOn ?? todayIso()), range));
    setOpen(next);
  };

  const weeks = monthGrid(view.year, view.month, calendar);

  /** Shows another month (or year), on the same day when it has one; keepFocus when done from the grid. */
  const moveTo = (parts: CalendarParts, keepFocus: boolean) => {
    let iso: string;
    try {
      iso = clamp(isoOfParts(addMonths(parts, 0, calendar), calendar), range);
    } catch {
      return; // beyond the calendar's years
    }
    moved.current = keepFocus;
    setFocused(iso);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTableElement>) => {
    // The grid runs right to left: the left arrow goes to the next day.
    const step: Record<string, number> = { ArrowLeft: 1, ArrowRight: -1, ArrowDown: 7, ArrowUp: -7 };
    const column = weekIndex(weekdayOf(focused), calendar);
    let next: string | null = null;
    if (e.key in step) next = addDays(focused, step[e.key]!);
    else if (e.key === 'Home') next = addDays(focused, -column);
    else if (e.key === 'End') next = addDays(focused, 6 - column);
    else if (e.key === 'PageUp' || e.key === 'PageDown') {
      e.preventDefault();
      moveTo(addMonths(view, (e.key === 'PageUp' ? -1 : 1) * (e.shiftKey ? 12 : 1), calendar), true);
      return;
    }
    if (next === null) return;
    e.preventDefault();
    moved.current = true;
    setFocused(clamp(next, range));
  };

  const pick = (iso: string) => {
    onPick(iso);
    setOpen(false);
  };

  const years = yearsOf(calendar, range, view.year);
  const heads = weekdayInitials(calendar);
  const names = persianWeekdayNames(calendar);

  return (
    <Popover.Root open={open} onOpenChange={openChange}>
      <Popover.Trigger disabled={disabled}>
        <IconButton type="button" size="1" variant="ghost" aria-label="انتخاب تاریخ از تقویم" data-testid={testId}>
          <CalendarIcon width="18" height="18" />
        </IconButton>
      </Popover.Trigger>
      <Popover.Content
        className="date-picker"
        dir="rtl"
        size="1"
        side="bottom"
        align="end"
        collisionPadding={8}
        aria-label="تقویم"
        data-calendar={calendar}
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          grid.current?.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
        }}
        onCloseAutoFocus={(e) => {
          e.preventDefault();
          fieldRef.current?.focus();
        }}
      >
        <Flex align="center" justify="between" gap="1" mb="2">
          <IconButton
            type="button"
            size="2"
            variant="ghost"
            aria-label="ماه قبل"
            onClick={() => moveTo(addMonths(view, -1, calendar), false)}
          >
            <ChevronRightIcon />
          </IconButton>
          <Flex gap="1" align="center">
            {/* Native selects: the phone's own wheel for a year decades back, and no tap falling through to the grid. */}
            <select
              className="date-picker-select"
              aria-label="ماه"
              data-testid="date-picker-month"
              value={view.month}
              onChange={(e) => moveTo({ ...view, month: Number(e.target.value) }, false)}
            >
              {MONTH_NAMES[calendar].map((name, i) => (
                <option key={name} value={i + 1}>
                  {name}
                </option>
              ))}
            </select>
            <select
              className="date-picker-select"
              aria-label="سال"
              data-testid="date-picker-year"
              value={view.year}
              onChange={(e) => moveTo({ ...view, year: Number(e.target.value) }, false)}
            >
              {years.map((y) => (
                <option key={y} value={y}>
                  {persian(y)}
                </option>
              ))}
            </select>
          </Flex>
          <IconButton
            type="button"
            size="2"
            variant="ghost"
            aria-label="ماه بعد"
            onClick={() => moveTo(addMonths(view, 1, calendar), false)}
          >
            <ChevronLeftIcon />
          </IconButton>
        </Flex>
        <table
          ref={grid}
          role="grid"
          className="date-picker-grid"
          aria-label={`${MONTH_NAMES[calendar][view.month - 1]} ${persian(view.year)}`}
          onKeyDown={onKeyDown}
        >
          <thead>
            <tr>
              {heads.map((h, i) => (
                <th key={names[i]} scope="col" abbr={names[i]}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((week, row) => (
              <tr key={row}>
                {week.map((d, col) =>
                  d ? (
                    <td key={d.iso} role="gridcell" aria-selected={d.iso === value}>
                      <button
                        type="button"
                        data-iso={d.iso}
                        tabIndex={d.iso === focused ? 0 : -1}
                        disabled={!inRange(d.iso)}
                        aria-label={dayLabel(d, calendar)}
                        aria-current={d.iso === today ? 'date' : undefined}
                        data-selected={d.iso === value || undefined}
                        onClick={() => pick(d.iso)}
                        onFocus={() => setFocused(d.iso)}
                      >
                        {persian(d.day)}
                      </button>
                    </td>
                  ) : (
                    <td key={`empty-${col}`} />
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
        <Flex justify="between" mt="2">
          <button type="button" className="date-picker-link" disabled={!inRange(today)} onClick={() => pick(today)}>
            امروز
          </button>
          <Popover.Close>
            <button type="button" className="date-picker-link">
              بستن
            </button>
          </Popover.Close>
        </Flex>
      </Popover.Content>
    </Popover.Root>
  );
}
