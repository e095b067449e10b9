/** The calendar every date display reads: Jalali ('fa', default) or Gregorian ('en'), remembered. */
import { atom } from 'jotai';
import { atomWithStorage } from 'jotai/utils';
import type { CalendarKind } from '../../shared/calendar';

export const calendarAtom = atomWithStorage<CalendarKind>('calendar', 'fa', undefined, { getOnInit: true });

export const isJalaliAtom = atom((get) => get(calendarAtom) === 'fa');
