/**
 * The tables' Kysely types, generated from the migrated database into src/generated/db.ts (`npm run codegen`;
 * `npm test` fails when they are stale). Nothing is kept here by hand: change a table with a new migration.
 */
export type { DB as Database, Tasks as TasksTable, Users as UsersTable } from '../../generated/db';
