/**
 * The audit trail speaks Persian from one place (docs/operations.md, the audit trail): every action and kind of record the server can
 * audit has a Persian name in src/shared/audit/names.ts (found by reading every `action:`/`entity:` literal the
 * server's modules pass to audit, besides the type that makes an unnamed one fail to compile), and a change reads
 * «field: before ← after» with Persian names, Persian digits and Jalali dates.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../src/shared/format';
import { displayDate } from '../../src/shared/format/dates';
import { auditChanges } from '../../src/shared/audit/changes';
import { AUDIT_ACTION_NAMES, AUDIT_ENTITY_NAMES, AUDIT_FIELD_NAMES } from '../../src/shared/audit/names';

const serverDir = path.resolve(import.meta.dirname, '../../src/server');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The text of every `audit(…)` and `replaceJoinRows(…)` call in the server, up to its closing parenthesis. */
function auditCalls(): string[] {
  const calls: string[] = [];
  for (const file of sources(serverDir)) {
    if (file.endsWith(path.join('lib', 'audit.ts'))) continue;
    const text = readFileSync(file, 'utf8');
    for (const start of text.matchAll(/\b(?:audit|replaceJoinRows)\(/g)) {
      let depth = 0;
      let at = start.index + start[0].length - 1;
      for (; at < text.length; at++) {
        if (text[at] === '(') depth++;
        else if (text[at] === ')' && --depth === 0) break;
      }
      calls.push(text.slice(start.index, at + 1));
    }
  }
  return calls;
}

/** The string literals given as `key:` (a ternary's branches included) in the server's audit calls. */
function auditedLiterals(key: 'action' | 'entity'): Set<string> {
  const found = new Set<string>();
  for (const call of auditCalls()) {
    for (const match of call.matchAll(new RegExp(`\\b${key}:\\s*((?:[^,}]|\\n)*)`, 'g'))) {
      // A ternary's branches, not what its condition compares with.
      for (const literal of match[1]!.matchAll(/(?<![=!]==\s*)'([A-Za-z.]+)'/g)) found.add(literal[1]!);
    }
  }
  return found;
}

const LATIN = /[A-Za-z]/;

describe('the audit trail names', () => {
  it('every action the server can audit has a Persian name', () => {
    const audited = auditedLiterals('action');
    expect(audited.size).toBeGreaterThan(30);
    expect([...audited].filter((action) => !(action in AUDIT_ACTION_NAMES))).toEqual([]);
    for (const name of Object.values(AUDIT_ACTION_NAMES)) expect(name).not.toMatch(LATIN);
  });

  it('every kind of record the server audits has a Persian name', () => {
    const entities = [...auditedLiterals('entity')].filter((e) => !(e in AUDIT_ENTITY_NAMES));
    expect(entities).toEqual([]);
    for (const kind of ['desk', 'form', 'plan']) expect(AUDIT_ENTITY_NAMES).toHaveProperty(`catalogue.${kind}`);
    for (const name of [...Object.values(AUDIT_ENTITY_NAMES), ...Object.values(AUDIT_FIELD_NAMES)])
      expect(name).not.toMatch(LATIN);
  });

  it('a change is field: before ← after in Persian, with Persian digits and Jalali dates', () => {
    const changes = auditChanges(
      '{"state": "pending", "amount": 1250000, "title": "x"}',
      { state: 'verified', amount: 1500000, title: 'x', decidedAt: '2026-11-28T10:00:00.000Z', isActive: true },
      'fa',
    );
    expect(changes).toEqual([
      { field: 'state', title: 'وضعیت', before: 'در انتظار', after: 'تایید شده' },
      { field: 'amount', title: 'مبلغ', before: formatNumber(1250000), after: formatNumber(1500000) },
      {
        field: 'decidedAt',
        title: 'زمان تصمیم',
        before: null,
        after: displayDate('2026-11-28T10:00:00.000Z', 'dateTime', 'fa'),
      },
      { field: 'isActive', title: 'فعال', before: null, after: 'بله' },
    ]);
    // A nested document is summarised, not dumped as JSON.
    const [document] = auditChanges(null, { document: { a: 1, b: 2, c: 3, d: 4, e: 5 } }, 'fa');
    expect(document!.after).toBe('سند با ۵ بخش');
  });
});
