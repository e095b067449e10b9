/**
 * A file field's declared limits (`x-file`, decision 045) read for the server and the catalogue check, and said in
 * Persian for the picker: what the field takes, and why a chosen file is refused before it is sent. The rule both
 * sides' validators run is file-fields.ts.
 */
import { toPersianDigits } from './digits';
import { EXTENSIONS, FILE_TYPES, type FileLimits, type FileType, typeOfName } from './file-fields';

/** The largest file a field may take (the upload call reads no more). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** The widgets that draw a file field: a field drawn with one must declare `x-file`, and only such a field may. */
export const FILE_WIDGETS: readonly string[] = ['imageUpload', 'fileUpload'];

export const MIME_TYPES: Record<FileType, string> = {
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};
const NAMES: Record<FileType, string> = { pdf: 'PDF', jpeg: 'JPEG', png: 'PNG', webp: 'WebP' };

/** The declared limits of a schema node, or null when it is not a file field. */
export function fileLimitsOf(node: unknown): FileLimits | null {
  const declared = (node as { 'x-file'?: unknown } | null | undefined)?.['x-file'];
  if (!declared || typeof declared !== 'object') return null;
  const { types, maxBytes, maxFiles } = declared as Partial<FileLimits>;
  if (!Array.isArray(types) || typeof maxBytes !== 'number' || typeof maxFiles !== 'number') return null;
  return { types: types.filter((t): t is FileType => FILE_TYPES.includes(t)), maxBytes, maxFiles };
}

/** Persian digits of a byte count in megabytes as people say them (5000000 and 5 MiB are both «۵ مگابایت»). */
export function megabytes(bytes: number): string {
  const mb = bytes % 1024 === 0 ? bytes / (1024 * 1024) : bytes / 1_000_000;
  return toPersianDigits(String(Math.round(mb * 10) / 10).replace('.', '٫'));
}

/**
 * The kinds in words: «PDF، JPEG یا PNG». A right-to-left mark follows each comma, so in a Persian line the Latin
 * names keep the order they are read in (between two Latin words a bare comma would join them into one left-to-right
 * run: «JPEG ،PDF»).
 */
export function typesInWords(types: readonly FileType[]): string {
  const names = types.map((t) => NAMES[t]);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join('،\u200f ')} یا ${names.at(-1)}`;
}

/** What the picker says a field takes: «PDF، JPEG یا PNG، حداکثر ۵ مگابایت، تا ۳ فایل». */
export function describeLimits(limits: FileLimits): string {
  const count = limits.maxFiles === 1 ? 'یک فایل' : `تا ${toPersianDigits(limits.maxFiles)} فایل`;
  return `${typesInWords(limits.types)}، حداکثر ${megabytes(limits.maxBytes)} مگابایت، ${count}`;
}

/** The `accept` attribute of the field's file input. */
export const acceptOf = (limits: FileLimits): string =>
  limits.types.flatMap((t) => [MIME_TYPES[t], ...EXTENSIONS[t].map((e) => `.${e}`)]).join(',');

/**
 * Why the picker refuses a chosen file before sending it (by its name and size only, for speed; the server's answer
 * on the bytes is the truth), in Persian, or null when it may be sent.
 */
export function precheckFile(
  file: { name: string; size: number },
  limits: FileLimits,
  alreadyAttached: number,
): string | null {
  if (alreadyAttached >= limits.maxFiles) return `این فیلد حداکثر ${toPersianDigits(limits.maxFiles)} فایل می‌پذیرد.`;
  const type = typeOfName(file.name);
  if (!type || !limits.types.includes(type)) return `فقط فایل ${typesInWords(limits.types)} پذیرفته می‌شود.`;
  if (file.size > limits.maxBytes) return `حجم فایل بیش از ${megabytes(limits.maxBytes)} مگابایت است.`;
  return null;
}
