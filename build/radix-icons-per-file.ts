/**
 * @radix-ui/react-icons ships every icon in one module, and a bundler cannot split a module between chunks: every
 * icon any page uses (the staff tables' included) went into the first page's script, 40 kB of it minified. This
 * plugin gives each icon a module of its own, cut from that file, and points our imports at them, so an icon
 * travels with the page that draws it (issue 10: the first page's bytes).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const LIBRARY = '@radix-ui/react-icons';
const VIRTUAL = 'virtual:radix-icon/';
const IMPORT = /import\s*\{([^}]*)\}\s*from\s*['"]@radix-ui\/react-icons['"];?/g;

/** The library's icons by name, each its source (`var _excludedN = …; var XIcon = …;`), and the shared helper. */
export function cutIcons(source: string): { helper: string; icons: Map<string, string> } {
  const parts = source.split(/(?=^var _excluded[\w$]* = )/m);
  const head = parts.shift() ?? '';
  const helper = /function _objectWithoutPropertiesLoose[\s\S]*?\n}\n/.exec(head)?.[0];
  if (!helper) throw new Error(`${LIBRARY}: its helper was not found; the plugin needs updating for this version`);
  const icons = new Map<string, string>();
  for (const part of parts) {
    const name = /^var (\w+) = \/\*#__PURE__\*\/forwardRef\(/m.exec(part)?.[1];
    if (!name) throw new Error(`${LIBRARY}: an icon's definition was not recognised; update the plugin`);
    icons.set(name, part.replace(/\nexport \{[\s\S]*$/, '\n'));
  }
  return { helper, icons };
}

/** `import { A, B as C } from '@radix-ui/react-icons'` as one import per icon from its own module. */
export function importsPerIcon(code: string): string {
  return code.replace(IMPORT, (_, names: string) =>
    names
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => `import { ${name} } from '${VIRTUAL}${name.split(/\s+as\s+/)[0]}';`)
      .join('\n'),
  );
}

/** The source of the library's one ES module (its package.json's `module`). */
export function librarySource(): string {
  const manifest = createRequire(import.meta.url).resolve(`${LIBRARY}/package.json`);
  const { module } = JSON.parse(readFileSync(manifest, 'utf8')) as { module: string };
  return readFileSync(path.join(path.dirname(manifest), module), 'utf8');
}

export function radixIconsPerFile(): Plugin {
  let cut: ReturnType<typeof cutIcons> | undefined;
  const icons = () => (cut ??= cutIcons(librarySource()));
  return {
    name: 'arzpay-radix-icons-per-file',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('/node_modules/') || !/\.[jt]sx?$/.test(id) || !code.includes(LIBRARY)) return null;
      return { code: importsPerIcon(code), map: null };
    },
    resolveId(id) {
      return id.startsWith(VIRTUAL) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${VIRTUAL}`)) return null;
      const { helper, icons: all } = icons();
      const name = id.slice(`\0${VIRTUAL}`.length);
      const icon = all.get(name);
      if (!icon) throw new Error(`${LIBRARY} has no icon ${name}`);
      // The library's small props helper is repeated in each icon: shared, it would be a chunk of its own to fetch.
      return `import { forwardRef, createElement } from 'react';\n${helper}${icon}export { ${name} };\n`;
    },
  };
}
