/**
 * Vitest setup file of the api and e2e projects: on PostgreSQL, this test file gets a database of its own, a copy
 * of the stage's migrated template, so files run side by side. TEST_DATABASE_URL names it for the rest of the
 * file (set before the file is imported: some read it at their top level); it is dropped when the file ends.
 */
import { afterAll } from 'vitest';
import { adminQuery } from './postgres-admin';
import { copyOfTemplate, fileDatabasePrefix, templateInfo } from './template-database';

const postgres = templateInfo()?.postgres;
if (postgres && process.env.TEST_DATABASE_URL?.startsWith('postgres')) {
  const name = `${fileDatabasePrefix(postgres.template)}${process.pid}_${Date.now()}`;
  process.env.TEST_DATABASE_URL = await copyOfTemplate(postgres, name);
  afterAll(async () => {
    await adminQuery(postgres.adminUrl, `drop database if exists ${name} with (force)`);
  });
}
