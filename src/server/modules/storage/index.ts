/**
 * The front door of storage (uploaded files): what other modules and the composition may use, and only that
 * (docs/decisions/038-module-front-doors.md). Files inside the module import one another directly.
 */
export { scheduleCleanup } from './cleanup';
export {
  type FileKind,
  isPdf,
  looksExecutable,
  MAX_IMAGE_BYTES,
  PDF_PURPOSES,
  reencodeImage,
  sniffFileKind,
  sniffImageKind,
} from './images';
export { CURRENCY_PAYMENT_RECEIPT, REQUEST_FILE, Storage, type StoredUpload } from './storage';
