/**
 * One migrated database per test stage, copied for each test file (tests/support/global-setup.ts makes it,
 * tests/support/file-database.ts copies it). A fresh in-memory PGlite runs initdb in WASM (6–11 s on this machine)
 * before its migrations; a PGlite opened from a dumped, migrated data directory is ready in about a second. On
 * PostgreSQL a file's database is `CREATE DATABASE … TEMPLATE` of the migrated one, so files can run side by side
 * instead of sharing one schema that each drops.
 *
 * The tests that prove migrations, a start on an empty data folder and the data-directory lock do not use it: they
 * open their databases the fresh way (tests/support/database.ts, child processes with a DATA_DIR of their own). Process
 * tests whose subject is not migrating (crash safety, the production switch, start-up's other cases) restore the image
 * into their data folder (`restoreMigratedImage`).
 */
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { openDatabase } from '../../src/server/db/database';
import { adminQuery, databaseUrlOn } from './postgres-admin';

/** What the global setup hands every test file (vitest `provide`/`inject`). */
export interface TemplateInfo {
  /** A dumped data directory (PGlite `dumpDataDir`, uncompressed tar) of a migrated in-memory database. */
  pgliteImagePath: string;
  /** When the stage runs on PostgreSQL: the server's URL (any database on it) and the migrated template's name. */
  postgres: { adminUrl: string; template: string } | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: TemplateInfo | null;
  }
}

/** The stage's template, or null when this file runs outside the api/e2e projects' global setup. */
export function templateInfo(): TemplateInfo | null {
  try {
    return inject('databaseTemplate') ?? null;
  } catch {
    return null;
  }
}

let image: Promise<Blob> | null = null;

/** The migrated PGlite image, read once per file. */
export function pgliteImage(): Promise<Blob> | null {
  const info = templateInfo();
  if (!info) return null;
  image ??= readFile(info.pgliteImagePath).then((bytes) => new Blob([bytes]));
  return image;
}

/**
 * Makes `dataDir`'s embedded database (what a process started with DATA_DIR=dataDir opens) a copy of the stage's
 * migrated image, for a test whose subject is not migrating from nothing: PGlite's initdb and every migration cost
 * tens of seconds of a busy machine per start. False outside a stage (no image): the process then migrates.
 */
export async function restoreMigratedImage(dataDir: string): Promise<boolean> {
  const image = await pgliteImage();
  if (!image) return false;
  const handle = await openDatabase({ databaseUrl: undefined, dataDir, restoreImage: image });
  await handle.close();
  return true;
}

/** The names of a stage's file databases begin with this, so the stage's end can find any a file left behind. */
export const fileDatabasePrefix = (template: string) => `${template}_f_`;

/**
 * Test databases commit without waiting for the WAL to reach the disk (`synchronous_commit = off`, every connection
 * to the database from now on): a test file's thousands of small transactions each waited 1–2 ms for an fsync here
 * (payments.test.ts on PostgreSQL 116 s -> 95 s). What a commit means to other sessions is unchanged, and no test
 * stops PostgreSQL itself, the only thing that could lose such a commit; the crash tests kill the app's process.
 */
export async function commitWithoutWaitingForDisk(adminUrl: string, database: string): Promise<void> {
  await adminQuery(adminUrl, `alter database ${database} set synchronous_commit = off`);
}

/** A new database on PostgreSQL, a copy of the stage's migrated template. */
export async function copyOfTemplate(postgres: NonNullable<TemplateInfo['postgres']>, name: string): Promise<string> {
  await adminQuery(postgres.adminUrl, `drop database if exists ${name} with (force)`);
  await adminQuery(postgres.adminUrl, `create database ${name} template ${postgres.template}`);
  await commitWithoutWaitingForDisk(postgres.adminUrl, name);
  return databaseUrlOn(postgres.adminUrl, name);
}
