/**
 * Image checks for uploads: the type is read from the bytes (never the name or the header), and the
 * image is decoded and re-encoded with sharp, which drops EXIF/XMP/ICC metadata (GPS, camera, names)
 * and refuses anything that is not a real image.
 */
import sharp from 'sharp';

export type ImageKind = 'jpeg' | 'png' | 'webp';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_PIXELS = 40_000_000;

export function sniffImageKind(bytes: Buffer): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'png';
  }
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    return 'webp';
  }
  return null;
}

/** Re-encodes in the same format, applying the EXIF orientation first; throws when the bytes do not decode. */
export async function reencodeImage(bytes: Buffer, kind: ImageKind): Promise<Buffer> {
  const image = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).rotate();
  switch (kind) {
    case 'jpeg':
      return image.jpeg({ quality: 88, mozjpeg: true }).toBuffer();
    case 'png':
      return image.png({ compressionLevel: 9 }).toBuffer();
    case 'webp':
      return image.webp({ quality: 88 }).toBuffer();
  }
}

/** What an upload may be: an image, or (for the purposes that allow it, see PDF_PURPOSES) a PDF. */
export type FileKind = ImageKind | 'pdf';

/** Upload purposes that take a PDF besides images: a request's conversation, a merchant's confirmation. */
export const PDF_PURPOSES: ReadonlySet<string> = new Set(['purchaseMessage', 'currencyPaymentReceipt']);

/** A PDF by its bytes: the `%PDF-` header and an end-of-file marker in its last kilobyte. */
export function isPdf(bytes: Buffer): boolean {
  return (
    bytes.length >= 16 &&
    bytes.toString('latin1', 0, 5) === '%PDF-' &&
    bytes.subarray(Math.max(0, bytes.length - 1024)).includes('%%EOF')
  );
}

/**
 * A program rather than a document, whatever its name says: a Windows executable (MZ), an ELF or Mach-O binary, a
 * script with a `#!` line. Named in the refusal, so a customer knows why a "PDF" was not taken.
 */
export function looksExecutable(bytes: Buffer): boolean {
  if (bytes.length < 2) return false;
  const head = bytes.toString('latin1', 0, 4);
  return (
    head.startsWith('MZ') ||
    head.startsWith('#!') ||
    head === '\x7fELF' ||
    ['feedface', 'feedfacf', 'cefaedfe', 'cffaedfe', 'cafebabe'].includes(bytes.subarray(0, 4).toString('hex'))
  );
}

/** What the bytes are among the kinds an upload may be, or null: a PDF by its markers, an image by its header. */
export const sniffFileKind = (bytes: Buffer): FileKind | null => (isPdf(bytes) ? 'pdf' : sniffImageKind(bytes));

export const MIME: Record<FileKind, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  pdf: 'application/pdf',
};
export const EXTENSION: Record<FileKind, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', pdf: 'pdf' };
