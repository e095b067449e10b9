/** The backup's pure parts (decision 025): its tar, the nightly schedule in Tehran time, and the pruning of old backups. */
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import { nextRunAt, pruneBackups } from '../../src/server/backup/nightly';
import { readEntry, readTarIndex, TarWriter } from '../../src/server/backup/tar';

const dir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-backup-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the backup tar', () => {
  it('reads back every entry, a name past 100 bytes and an empty file included', () => {
    const source = path.join(dir, 'source.bin');
    const bytes = Buffer.from(Array.from({ length: 1500 }, (_, i) => i % 251));
    writeFileSync(source, bytes);
    const longName = `storage/${'نام-'.repeat(30)}.jpg`;
    const file = path.join(dir, 'a.tar');
    const out = openSync(file, 'wx');
    const tar = new TarWriter(out);
    tar.addBuffer('manifest.json', Buffer.from('{"a":1}\n'));
    tar.addFile(longName, source, bytes.length, Date.now());
    tar.addBuffer('empty', Buffer.alloc(0));
    tar.finish();
    closeSync(out);
    const fd = openSync(file, 'r');
    const entries = readTarIndex(fd);
    expect(entries.map((e) => [e.name, e.size])).toEqual([
      ['manifest.json', 8],
      [longName, 1500],
      ['empty', 0],
    ]);
    expect(readEntry(fd, entries[1]!)).toEqual(bytes);
    closeSync(fd);
  });

  it('refuses a damaged header', () => {
    const file = path.join(dir, 'bad.tar');
    writeFileSync(file, Buffer.concat([Buffer.from('not a tar'), Buffer.alloc(1024)]));
    const fd = openSync(file, 'r');
    expect(() => readTarIndex(fd)).toThrow(/checksum/);
    closeSync(fd);
  });
});

describe('the nightly backup', () => {
  it('runs next at the hour in Tehran (UTC+03:30), today if it is still ahead, else tomorrow', () => {
    // 23:00 UTC is 02:30 in Tehran: 03:00 Tehran is half an hour later.
    expect(nextRunAt(new Date('2026-11-27T23:00:00Z'), 3).toISOString()).toBe('2026-11-27T23:30:00.000Z');
    // 00:00 UTC is 03:30 in Tehran: the next 03:00 is tomorrow's.
    expect(nextRunAt(new Date('2026-11-28T00:00:00Z'), 3).toISOString()).toBe('2026-11-28T23:30:00.000Z');
    expect(nextRunAt(new Date('2026-11-27T23:30:00Z'), 3).toISOString()).toBe('2026-11-28T23:30:00.000Z');
  });

  it('keeps the newest BACKUP_KEEP backups it named and nothing else is touched', () => {
    const folder = mkdtempSync(path.join(dir, 'keep-'));
    const names = ['2026-11-25T233000Z', '2026-11-26T233000Z', '2026-11-27T233000Z'].map((t) => `arzpay-${t}.backup`);
    for (const name of [...names, 'notes.txt', 'arzpay-2026-11-20T233000Z.backup.partial']) {
      writeFileSync(path.join(folder, name), 'x');
    }
    expect(pruneBackups(folder, 2)).toEqual([names[0]]);
    expect(readdirSync(folder).sort()).toEqual([
      'arzpay-2026-11-20T233000Z.backup.partial',
      names[1],
      names[2],
      'notes.txt',
    ]);
  });

  it('is off without BACKUP_DIR and refuses an hour outside 0–23', () => {
    expect(loadConfig({}).nightlyBackup).toBeNull();
    expect(loadConfig({ BACKUP_DIR: '/srv/b', BACKUP_KEEP: '3' }).nightlyBackup).toEqual({
      dir: '/srv/b',
      keep: 3,
      hour: 3,
    });
    expect(() => loadConfig({ BACKUP_DIR: '/srv/b', BACKUP_HOUR: '24' })).toThrow(ConfigError);
  });
});
