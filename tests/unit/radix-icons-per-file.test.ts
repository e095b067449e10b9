import { describe, expect, it } from 'vitest';
import { cutIcons, importsPerIcon, librarySource } from '../../build/radix-icons-per-file';

const library = librarySource();

describe('radix icons, one module each', () => {
  it('cuts every icon the library exports, each defining itself and nothing else', () => {
    const exported = /export \{([^}]*)\}/
      .exec(library)![1]!
      .split(',')
      .map((name) => name.trim());
    const { helper, icons } = cutIcons(library);
    expect(helper).toMatch(/^function _objectWithoutPropertiesLoose\(/);
    expect([...icons.keys()].sort()).toEqual([...exported].sort());
    for (const [name, code] of icons) {
      expect([...code.matchAll(/^var (\w+) = \/\*#__PURE__\*\/forwardRef/gm)].map((m) => m[1])).toEqual([name]);
      expect(code).not.toContain('export');
    }
  });

  it('turns one import of several icons into one import per icon, keeping aliases', () => {
    const source = `import { Flex } from '@radix-ui/themes';\nimport {\n  HomeIcon,\n  PlusIcon as Add,\n} from '@radix-ui/react-icons';\n`;
    expect(importsPerIcon(source)).toBe(
      `import { Flex } from '@radix-ui/themes';\nimport { HomeIcon } from 'virtual:radix-icon/HomeIcon';\nimport { PlusIcon as Add } from 'virtual:radix-icon/PlusIcon';\n`,
    );
  });
});
