/**
 * A list's date-range filter: «از تاریخ» and «تا تاریخ» in the chosen calendar, and the range as a table source's
 * `from`/`to` parameters (stored days; a bound still being typed is left out).
 */
import { Flex, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import { calendarAtom } from '../../lib/calendar';
import { dateBound, JalaliDateInput } from './JalaliDateInput';

export interface DateRange {
  from: string;
  to: string;
  setFrom: (value: string) => void;
  setTo: (value: string) => void;
  /** `{ from?, to? }` for the table source: only the bounds that are whole dates. */
  params: { from?: string; to?: string };
}

export function useDateRange(): DateRange {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const params = useMemo(() => {
    const first = dateBound(from);
    const last = dateBound(to);
    return { ...(first ? { from: first } : {}), ...(last ? { to: last } : {}) };
  }, [from, to]);
  return { from, to, setFrom, setTo, params };
}

/** The two date fields, side by side in the filter row; their ids are `<idPrefix>-from` and `<idPrefix>-to`. */
export function DateRangeFilter({
  idPrefix,
  range,
  fromLabel = 'از تاریخ',
}: {
  idPrefix: string;
  range: DateRange;
  fromLabel?: string;
}) {
  const calendar = useAtomValue(calendarAtom);
  return (
    <>
      <Flex direction="column" gap="1" style={{ minWidth: 150 }}>
        <Text as="label" size="2" htmlFor={`${idPrefix}-from`}>
          {fromLabel}
        </Text>
        <JalaliDateInput id={`${idPrefix}-from`} value={range.from} onChange={range.setFrom} calendar={calendar} />
      </Flex>
      <Flex direction="column" gap="1" style={{ minWidth: 150 }}>
        <Text as="label" size="2" htmlFor={`${idPrefix}-to`}>
          تا تاریخ
        </Text>
        <JalaliDateInput id={`${idPrefix}-to`} value={range.to} onChange={range.setTo} calendar={calendar} />
      </Flex>
    </>
  );
}
