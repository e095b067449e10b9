/** Real images made on the fly for upload tests. */
import sharp from 'sharp';

/** A JPEG carrying EXIF metadata (camera make and a GPS-ish comment) to prove it gets stripped. */
export async function jpegWithExif(width = 320, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 160 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'SecretCam', ImageDescription: 'GPS 35.6892N 51.3890E' } })
    .toBuffer();
}

export async function png(width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: '#ff8800' } })
    .png()
    .toBuffer();
}

export function uploadForm(
  bytes: Buffer,
  filename: string,
  filePrefix = 'nationalCard',
  type = 'image/jpeg',
): FormData {
  const form = new FormData();
  form.set('filePrefix', filePrefix);
  form.set('attached_file', new Blob([new Uint8Array(bytes)], { type }), filename);
  return form;
}
