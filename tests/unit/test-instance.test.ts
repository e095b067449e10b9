/** A test instance's page mark (decision 023): where the banner goes, and which compressed copy a client gets. */
import { describe, expect, it } from 'vitest';
import { markTestInstance, pageEncoding } from '../../src/server/http/test-instance';

describe('markTestInstance', () => {
  it('marks <html> and puts the banner first in <body>, leaving the rest as it is', () => {
    const page =
      '<!doctype html>\n<html lang="fa" dir="rtl"><head></head>\n<body class="x">\n<div id="root"></div></body></html>';
    expect(markTestInstance(page)).toBe(
      '<!doctype html>\n<html data-test-instance="sandbox" lang="fa" dir="rtl"><head></head>\n<body class="x">' +
        '<p id="test-instance-banner" class="test-instance-banner" role="status">درگاه آزمایشی: پولی جابه‌جا نمی‌شود</p>' +
        '\n<div id="root"></div></body></html>',
    );
  });
});

describe('pageEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0.1, gzip', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', null],
    ['', null],
    [undefined, null],
  ] as const)('%s → %s', (header, expected) => {
    expect(pageEncoding(header)).toBe(expected);
  });
});
