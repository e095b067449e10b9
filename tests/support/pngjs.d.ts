/** Types for pngjs (qrcode's dependency; it ships none): the synchronous reader the QR tests use. */
declare module 'pngjs' {
  export const PNG: {
    sync: { read(buffer: Buffer): { width: number; height: number; data: Buffer } };
  };
}
