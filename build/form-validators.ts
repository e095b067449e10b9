/**
 * The build's precompiled form validators (decision 015): the module of every desk of schemas/, as
 * `form-validators/<key>.js` in the web's output, where the desk page loads it from (src/web/components/form-engine/
 * validator.ts) and the static plugin serves it precompressed. A desk published later is made by the server
 * (src/server/modules/desks/form-validators.ts) with the same generator.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Catalogue } from '../src/server/modules/desks/catalogue';
import { formValidatorModule } from '../src/shared/validation/standalone';
import { formValidatorKey } from '../src/shared/validation/validator-key';

export const FORM_VALIDATORS_DIR = 'form-validators';

export function writeFormValidators(repoRoot: string, outDir: string): string[] {
  const catalogue = Catalogue.load(path.join(repoRoot, 'schemas'));
  const dir = path.join(outDir, FORM_VALIDATORS_DIR);
  mkdirSync(dir, { recursive: true });
  const written = new Set<string>();
  for (const { schema } of catalogue.snapshot.deskForms.values()) {
    const file = `${formValidatorKey(schema)}.js`;
    if (written.has(file)) continue;
    writeFileSync(path.join(dir, file), formValidatorModule(schema));
    written.add(file);
  }
  return [...written];
}
