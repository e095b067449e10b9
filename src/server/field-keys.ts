/** The keys of credentials at rest (decision 021), from the configuration or the data directory. */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config';
import { FieldCipher, KEY_FILE_NAME, keyFromDataDir } from './lib/field-cipher';

/**
 * The cipher of credentials at rest (decision 021): FIELD_ENCRYPTION_KEY, or else the key file under DATA_DIR,
 * created on the first start (said once, in the log, with where it is; never the key). With the variable set, a key
 * file left from earlier starts still opens what it sealed, so moving to the variable re-seals at this start.
 */
export function fieldCipher(config: AppConfig, log: FastifyBaseLogger): FieldCipher {
  const keyFile = path.join(config.dataDir, KEY_FILE_NAME);
  if (config.fieldKeys.current) {
    const previous = [...config.fieldKeys.previous];
    if (existsSync(keyFile)) previous.push(keyFromDataDir(config.dataDir).key);
    return new FieldCipher(config.fieldKeys.current, previous);
  }
  mkdirSync(config.dataDir, { recursive: true });
  const { key, file, created } = keyFromDataDir(config.dataDir);
  if (created) {
    log.warn(
      { file },
      'FIELD_ENCRYPTION_KEY is not set: created a key file for credentials at rest (owner-only); back it up with the database, or set FIELD_ENCRYPTION_KEY',
    );
  }
  return new FieldCipher(key, config.fieldKeys.previous);
}
