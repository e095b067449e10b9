/**
 * `npm test` runs the API suite twice: on the embedded database, then on PostgreSQL (tests/run.ts). A case that starts
 * its own process on its own embedded data folder, whatever database the stage gives the file, proves the same thing
 * in both stages, so the PostgreSQL stage, which runs after the embedded one has passed, sets
 * EMBEDDED_CASES_RAN=1 and skips it. Run on its own (no such variable), a file runs all its cases.
 */
export const embeddedCasesRan = process.env.EMBEDDED_CASES_RAN === '1';
