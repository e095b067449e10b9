/**
 * Vitest global setup of the api and e2e projects: migrates one database for the whole stage (see
 * tests/support/template-database.ts) and removes it when the stage ends.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { TestProject } from 'vitest/node';
import type { DB as Database } from '../../src/generated/db';
import { openDatabase } from '../../src/server/db/database';
import { migrate } from '../../src/server/db/migrate';
import { adminQuery, databasesNamed, databaseUrlOn } from './postgres-admin';
import { commitWithoutWaitingForDisk, fileDatabasePrefix, type TemplateInfo } from './template-database';

/** Migrates a new in-memory PGlite and dumps its data directory (uncompressed: loading skips the inflate). */
async function migratedPgliteImage(): Promise<Buffer> {
  const pglite = new PGlite();
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  try {
    await migrate({ db, runScript: async (_on, text) => void (await pglite.exec(text)) });
    return Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
  } finally {
    await db.destroy();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  // `npm test` (tests/run.ts) names one image for all its stages: the first stage makes it, the others load it.
  const shared = process.env.TEST_PGLITE_IMAGE;
  const pgliteImagePath = shared || path.join(os.tmpdir(), `arzpay-template-${process.pid}-${Date.now()}.tar`);
  const image = shared && existsSync(shared) ? null : migratedPgliteImage();

  let postgres: TemplateInfo['postgres'] = null;
  const testUrl = process.env.TEST_DATABASE_URL;
  // PostgreSQL migrates in its own processes while PGlite migrates in this one: side by side.
  if (testUrl?.startsWith('postgres')) {
    const template = `arzpay_template_${process.pid}_${Date.now()}`;
    await adminQuery(testUrl, `create database ${template}`);
    await commitWithoutWaitingForDisk(testUrl, template);
    const handle = await openDatabase({ databaseUrl: databaseUrlOn(testUrl, template), dataDir: '' });
    try {
      await migrate(handle);
    } finally {
      await handle.close();
    }
    postgres = { adminUrl: testUrl, template };
  }
  if (image) writeFileSync(pgliteImagePath, await image);
  project.provide('databaseTemplate', { pgliteImagePath, postgres });
  console.log(`migrated template database${postgres ? 's' : ''} ready in ${Date.now() - started} ms`);

  return async () => {
    if (!shared) rmSync(pgliteImagePath, { force: true });
    if (!postgres) return;
    // Each file drops its own copy when it ends, but vitest runs no afterAll of a file whose every test is skipped
    // (a PGlite-only file in this stage): what is left of this stage's copies goes here.
    for (const name of await databasesNamed(postgres.adminUrl, fileDatabasePrefix(postgres.template))) {
      await adminQuery(postgres.adminUrl, `drop database if exists ${name} with (force)`);
    }
    await adminQuery(postgres.adminUrl, `drop database if exists ${postgres.template} with (force)`);
  };
}
