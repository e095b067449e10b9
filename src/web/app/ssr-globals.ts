/**
 * What the app reads from the browser when its modules load, for the build-time prerender in Node: an empty
 * localStorage (a guest: no token). Imported by build/prerender.ts before it loads the built prerender module, whose
 * chunks run before the module's own first line, and by app/prerender.tsx for any other runner.
 */
if (typeof globalThis.localStorage === 'undefined') {
  const items = new Map<string, string>();
  const storage: Storage = {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
}

export {};
