/**
 * Radix Themes' `Theme` wraps the app in Radix's tooltip provider, and `@radix-ui/react-tooltip` is one module: the
 * provider brought the whole tooltip (its content, the popper and the floating-ui positioning, about 25 kB gzip) into
 * the first page's script, though no public page draws a tooltip. This plugin gives `Theme` a provider that only
 * renders its children; the one place that draws tooltips (the staff side navigation, a lazy chunk) wraps them in
 * the real provider. A version of the library whose `Theme` no longer imports it this way fails the build.
 */
import type { Plugin } from 'vite';

const THEME = /\/@radix-ui\/themes\/dist\/esm\/components\/theme\.js$/;
const IMPORT = /import\s*\{([^}]*)\}\s*from\s*"radix-ui";/;
const STUB = '\0arzpay-tooltip-provider-stub';

export function tooltipProviderAtUse(): Plugin {
  return {
    name: 'arzpay-tooltip-provider-at-use',
    enforce: 'pre',
    resolveId: (id) => (id === STUB ? STUB : null),
    load: (id) => (id === STUB ? 'export const Tooltip = { Provider: (props) => props.children };\n' : null),
    transform(code, id) {
      if (!THEME.test(id.split('?')[0] ?? id)) return null;
      const found = IMPORT.exec(code);
      const names = found?.[1]?.split(',').map((name) => name.trim());
      const tooltip = names?.find((name) => /^Tooltip(\s+as\s+[\w$]+)?$/.test(name));
      if (!found || !names || !tooltip)
        throw new Error(
          '@radix-ui/themes: Theme no longer imports Tooltip from "radix-ui"; update build/tooltip-provider-at-use.ts',
        );
      const rest = names.filter((name) => name !== tooltip);
      const replaced = `import{${rest.join(',')}}from"radix-ui";import{${tooltip}}from"${STUB}";`;
      return { code: code.replace(found[0], replaced), map: null };
    },
  };
}
