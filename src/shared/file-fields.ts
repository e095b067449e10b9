/**
 * File fields with declared limits (docs/decisions/045-file-fields.md): a form's field drawn with the upload widget
 * says in its schema what it takes, `"x-file": { "types": ["pdf", "jpeg", "png"], "maxBytes": 5000000, "maxFiles": 3 }`.
 * The value is the stored paths joined by '|'. This file is the rule both sides' validators run (the count and the
 * kinds of the stored paths), kept small because every page with a form carries it; file-limits.ts reads the
 * declaration for the server and says it in Persian for the picker.
 */

export type FileType = 'pdf' | 'jpeg' | 'png' | 'webp';
export const FILE_TYPES: readonly FileType[] = ['pdf', 'jpeg', 'png', 'webp'];

export interface FileLimits {
  types: FileType[];
  maxBytes: number;
  maxFiles: number;
}

/** A stored path's extension and a chosen file's name's, per type. */
export const EXTENSIONS: Record<FileType, readonly string[]> = {
  pdf: ['pdf'],
  jpeg: ['jpg', 'jpeg'],
  png: ['png'],
  webp: ['webp'],
};
/** The type a file name (or stored path) ends in, or null. */
export function typeOfName(name: string): FileType | null {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return FILE_TYPES.find((t) => EXTENSIONS[t].includes(ext)) ?? null;
}

/** The paths a file field's value holds. */
export const pathsOf = (value: unknown): string[] =>
  typeof value === 'string' ? value.split('|').filter((p) => p.trim() !== '') : [];

/** The `x-file` rule on a value: at most maxFiles paths, each of a declared type; other types are not its business. */
export function fileFieldHolds(data: unknown, limits: FileLimits): boolean {
  if (typeof data !== 'string') return true;
  const paths = pathsOf(data);
  return paths.length <= limits.maxFiles && paths.every((p) => limits.types.includes(typeOfName(p) as FileType));
}
