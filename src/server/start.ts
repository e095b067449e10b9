/**
 * Process entry: validates configuration, builds the web app when it is missing or stale
 * (`--build-if-needed`), starts the server and shuts it down gracefully on SIGTERM/SIGINT.
 * Start-up failures print one line and exit 1: no stack traces for an operator to decode.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { adminPasswordNotice } from './admin-notice';
import { ConfigError, loadConfig } from './config';
import { demoOnNetworkWarning } from './production-config';

const root = path.resolve(import.meta.dirname, '../..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function buildWebIfNeeded(webDir: string): void {
  const index = path.join(webDir, 'index.html');
  // build/ holds the build's own steps; the prerender reads the catalogue through the server's desks module.
  const sources = ['src/web', 'src/shared', 'src/generated', 'schemas', 'build', 'src/server/modules/desks'].map((d) =>
    path.join(root, d),
  );
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  if (built > 0 && sources.every((dir) => !existsSync(dir) || newestMtime(dir) <= built)) return;
  console.log('building the web app (vite build)…');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error('the web app build failed (see the output above)');
}

function fail(message: string): never {
  console.error(`arzpay: ${message}`);
  process.exit(1);
}

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // One line per problem: production reports every missing choice at once (decision 023).
      for (const line of error.problems.slice(0, -1)) console.error(`arzpay: configuration error: ${line}`);
      fail(`configuration error: ${error.problems.at(-1) ?? error.message}`);
    }
    throw error;
  }
  if (process.argv.includes('--build-if-needed')) buildWebIfNeeded(config.webDir);

  // The server's modules are loaded once the configuration holds: a refused start answers in the time Node takes
  // to start, not after loading every module of the app (seconds on a busy machine).
  const [{ buildApp }, { RedisUnavailableError }, { DatabaseUnavailableError }, { MigrationError }, lock, dependency] =
    await Promise.all([
      import('./app'),
      import('./redis'),
      import('./db/database'),
      import('./db/migrate'),
      import('./lib/data-dir-lock'),
      import('./http/dependency-errors'),
    ]);
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(config);
  } catch (error) {
    if (
      error instanceof DatabaseUnavailableError ||
      error instanceof RedisUnavailableError ||
      error instanceof lock.DataDirLockedError ||
      error instanceof MigrationError
    )
      fail(error.message);
    throw error;
  }
  const { fastify } = app;
  const demoWarning = demoOnNetworkWarning(config);
  if (demoWarning) fastify.log.warn(demoWarning);
  if (app.generatedAdminPassword) {
    // Shown once, on the start that created the account, as plain text on stderr; the JSON log (often kept
    // and shipped) gets no password.
    fastify.log.warn({ adminUsername: config.admin.username }, 'administrator created; its password is on stderr');
    process.stderr.write(`${adminPasswordNotice(config.admin.username, app.generatedAdminPassword)}\n`);
  }

  // The last line of defence (decision 032): a dependency that went away (a PostgreSQL connection reset, Redis out of
  // reach) must not end the process through a rejection or an 'error' nobody awaited. Each known source is handled
  // where it arises; one found here is logged as an error to be fixed, and the process stays up. Anything else is
  // a bug of unknown reach: logged, and the process ends as Node would end it.
  const lastResort = (kind: string) => (error: unknown) => {
    const away = dependency.unavailableDependency(error);
    fastify.log.error({ err: error, dependency: away ?? undefined }, kind);
    if (!away) process.exit(1);
  };
  process.on('unhandledRejection', lastResort('unhandled rejection'));
  process.on('uncaughtException', lastResort('uncaught exception'));

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    fastify.log.info({ signal }, 'shutting down');
    await fastify.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    await fastify.listen({ port: config.port, host: config.host });
  } catch (error) {
    await fastify.close().catch(() => {});
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') fail(`port ${config.port} is already in use (set PORT to another port)`);
    throw error;
  }
  const address = fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = ['0.0.0.0', '::'].includes(config.host) ? 'localhost' : config.host;
  fastify.log.info(
    { port, host: config.host, database: app.database.kind },
    `listening on http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
  );
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
