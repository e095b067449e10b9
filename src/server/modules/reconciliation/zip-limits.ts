/**
 * How much an uploaded xlsx (a zip) says it inflates to, read from its central directory before anything is
 * inflated (decision 031): a 405 kB statement inflating to 400 MB held the event loop for two minutes and took
 * gigabytes. A file is refused when one entry would inflate beyond PER_ENTRY_BYTES, all of them beyond
 * TOTAL_BYTES, when it has more than MAX_ENTRIES entries, uses ZIP64 sizes, or has no readable central directory.
 * A bank's statement of a day or a week inflates to a few megabytes.
 */

export const PER_ENTRY_BYTES = 32 * 1024 * 1024;
export const TOTAL_BYTES = 64 * 1024 * 1024;
export const MAX_ENTRIES = 500;

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;

/** Whether the zip's declared sizes stay within the limits; false for anything that cannot be read as a zip. */
export function zipWithinLimits(bytes: Buffer): boolean {
  // The end-of-central-directory record: 22 bytes, after at most a 65,535-byte comment.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (bytes.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return false;
  const entries = bytes.readUInt16LE(eocd + 10);
  let at = bytes.readUInt32LE(eocd + 16);
  if (entries > MAX_ENTRIES || entries === 0xffff || at === 0xffffffff) return false;
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL) return false;
    const inflated = bytes.readUInt32LE(at + 24);
    if (inflated === 0xffffffff || inflated > PER_ENTRY_BYTES) return false;
    total += inflated;
    if (total > TOTAL_BYTES) return false;
    at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return true;
}
