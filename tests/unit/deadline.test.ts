/**
 * Deadlines (decision 033): `x-deadline` is checked by schemas:check (one top-level date field, reported with
 * file and JSON pointer), the desks that need one have it, and the shared helpers read the date as the start of
 * its day in Tehran and say the time left in Persian.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSchemaTree } from '../../codegen/validate-schemas';
import {
  deadlineEnd,
  deadlineFieldOf,
  deadlineInstant,
  deadlineOf,
  isAtRisk,
  timeLeftText,
} from '../../src/shared/deadline';

const schemasDir = path.resolve(import.meta.dirname, '../../schemas');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(schemasDir, file), 'utf8'));

describe('x-deadline in schemas:check', () => {
  it('fails with file and pointer on a non-date field and on a second deadline', async () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'deadline-schemas-'));
    try {
      cpSync(schemasDir, copy, { recursive: true });
      const form = readJson('forms/deadlineCpr.json');
      form.schema.properties.targetPageAddress['x-deadline'] = true;
      form.schema.properties.secondDate = { type: 'string', title: 'تاریخ دوم', format: 'date', 'x-deadline': true };
      writeFileSync(path.join(copy, 'forms/deadlineCpr.json'), JSON.stringify(form));
      const problems = await validateSchemaTree(copy);
      expect(problems.map((p) => [path.relative(copy, p.file), p.pointer])).toEqual([
        ['forms/deadlineCpr.json', '/schema/properties/targetPageAddress/x-deadline'],
        ['forms/deadlineCpr.json', '/schema/properties/secondDate/x-deadline'],
      ]);
      expect(problems[0]!.message).toMatch(/date/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('passes on the real tree, where the exam and embassy desks have a deadline', async () => {
    expect(await validateSchemaTree(schemasDir)).toEqual([]);
    const desks = [
      'toeflGeneralCpr',
      'greGeneralCpr',
      'ieltsGeneralCpr',
      'ieltsRegistrationAndCpr',
      'australiaEmbassyAppointmentCpr',
      'britishEmbassyAppointmentCpr',
      'canadaEmbassyAppointmentCpr',
      'otherEmbassyAppointmentCpr',
      'usaEmbassyAppointmentCpr',
    ];
    for (const desk of desks) {
      const { formType } = readJson(`catalogue/desks/${desk}.json`);
      expect(deadlineFieldOf(readJson(`forms/${formType}.json`).schema), desk).not.toBeNull();
    }
    expect(deadlineFieldOf(readJson('forms/generalCpr.json').schema)).toBeNull();
  });
});

describe('deadline helpers', () => {
  it('read a date as the start of its day in Tehran', () => {
    expect(deadlineInstant('2026-12-01')?.toISOString()).toBe('2026-11-30T20:30:00.000Z');
    expect(deadlineInstant('1405-09-10')?.toISOString()).toBe('1405-09-09T20:30:00.000Z');
    expect(deadlineInstant('next week')).toBeNull();
    expect(deadlineInstant(undefined)).toBeNull();
    const schema = { properties: { when: { type: 'string', format: 'date', 'x-deadline': true } } };
    // The request's deadline is the end of that day: the form gives no time, the day is the customer's.
    expect(deadlineOf(schema, { when: '2026-12-01' })?.toISOString()).toBe('2026-12-01T20:29:59.000Z');
    expect(deadlineOf(schema, {})).toBeNull();
  });

  it('give the customer the whole deadline day, up to 23:59:59 in Tehran (decision 033)', () => {
    // 8 Azar 1405 is 2026-11-29; its last second in Tehran (UTC+03:30) is 20:29:59 UTC.
    expect(deadlineEnd('2026-11-29')?.toISOString()).toBe('2026-11-29T20:29:59.000Z');
    expect(deadlineEnd('2026-02-30')).toBeNull();
    expect(deadlineEnd('tomorrow')).toBeNull();
    // At 21:17 on 7 Azar (Tehran) more than a day is left, not «۲ ساعت و ۴۳ دقیقه».
    const at2117 = Date.parse('2026-11-28T17:47:00Z');
    const end = deadlineEnd('2026-11-29')!.getTime();
    expect(timeLeftText(end - at2117)).toBe('۱ روز و ۲ ساعت');
    // At 23:59 on the day itself a minute is left; a second after its end it has passed.
    expect(timeLeftText(end - Date.parse('2026-11-29T20:29:00Z'))).toBe('۱ دقیقه');
    expect(timeLeftText(end - Date.parse('2026-11-29T20:30:00Z'))).toBe('گذشته');
    // At risk with 48 hours: on 6 Azar at noon not yet (about 56 hours left), on 7 Azar at noon yes (about 32).
    expect(isAtRisk(deadlineEnd('2026-11-29'), 48, Date.parse('2026-11-27T08:30:00Z'))).toBe(false);
    expect(isAtRisk(deadlineEnd('2026-11-29'), 48, Date.parse('2026-11-28T08:30:00Z'))).toBe(true);
  });

  it('say the time left in Persian and tell a deadline at risk', () => {
    const hour = 3_600_000;
    expect(timeLeftText((3 * 24 + 4) * hour + 59_000)).toBe('۳ روز و ۴ ساعت');
    expect(timeLeftText(2 * 24 * hour)).toBe('۲ روز');
    expect(timeLeftText(5 * hour + 10 * 60_000)).toBe('۵ ساعت و ۱۰ دقیقه');
    expect(timeLeftText(20 * 60_000)).toBe('۲۰ دقیقه');
    expect(timeLeftText(-1)).toBe('گذشته');
    const now = Date.parse('2026-11-28T00:00:00Z');
    expect(isAtRisk(new Date(now + 47 * hour), 48, now)).toBe(true);
    expect(isAtRisk(new Date(now + 49 * hour), 48, now)).toBe(false);
    expect(isAtRisk(new Date(now - hour), 48, now)).toBe(true);
    expect(isAtRisk(null, 48, now)).toBe(false);
  });
});
