/**
 * The backup file is a plain POSIX tar (ustar, with a PAX header for a name past 100 bytes), so an operator can look
 * inside with `tar tf` and take a file out with `tar xf` without our code. Written and read here, entry by entry,
 * streaming each file's bytes: a backup is never held in memory whole.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, type: '0' | 'x', mtime: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(0o600, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(mtime / 1000), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/** One PAX record `"<length> path=<name>\n"`, whose length counts itself. */
function paxPath(name: string): Buffer {
  const body = ` path=${name}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length++;
  return Buffer.from(`${length}${body}`, 'utf8');
}

/** Writes a tar to an open file descriptor, one entry at a time. */
export class TarWriter {
  constructor(private readonly fd: number) {}

  private write(bytes: Buffer): void {
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done);
  }

  private pad(size: number): void {
    const rest = size % BLOCK;
    if (rest > 0) this.write(Buffer.alloc(BLOCK - rest));
  }

  private begin(name: string, size: number, mtime: number): void {
    if (Buffer.byteLength(name) > 100) {
      const pax = paxPath(name);
      this.write(header('PaxHeader', pax.length, 'x', mtime));
      this.write(pax);
      this.pad(pax.length);
    }
    this.write(header(name, size, '0', mtime));
  }

  addBuffer(name: string, bytes: Buffer, mtime = Date.now()): void {
    this.begin(name, bytes.length, mtime);
    this.write(bytes);
    this.pad(bytes.length);
  }

  /** Copies the file at `source`, whose size is `size` (read before: a file that changed size is an error). */
  addFile(name: string, source: string, size: number, mtime: number): void {
    this.begin(name, size, mtime);
    const fd = openSync(source, 'r');
    try {
      const chunk = Buffer.alloc(1 << 20);
      let done = 0;
      while (done < size) {
        const read = readSync(fd, chunk, 0, Math.min(chunk.length, size - done), done);
        if (read === 0) throw new Error(`${source} became shorter while it was copied`);
        this.write(chunk.subarray(0, read));
        done += read;
      }
    } finally {
      closeSync(fd);
    }
    this.pad(size);
  }

  finish(): void {
    this.write(Buffer.alloc(BLOCK * 2));
  }
}

export interface TarEntry {
  name: string;
  size: number;
  /** Where the entry's bytes begin in the file. */
  offset: number;
}

const field = (block: Buffer, start: number, length: number) =>
  block.toString('utf8', start, start + length).replace(/\0.*$/s, '');

/** The entries of the tar at `file`, in order; throws on anything that is not a tar of ours. */
export function readTarIndex(fd: number): TarEntry[] {
  const entries: TarEntry[] = [];
  const block = Buffer.alloc(BLOCK);
  let position = 0;
  let longName: string | null = null;
  for (;;) {
    if (readSync(fd, block, 0, BLOCK, position) !== BLOCK) throw new Error('the file ends before the tar does');
    if (block.every((b) => b === 0)) return entries;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
    if (sum !== parseInt(field(block, 148, 8).trim(), 8)) throw new Error('a tar header is damaged (checksum)');
    const size = parseInt(field(block, 124, 12).trim() || '0', 8);
    const type = field(block, 156, 1);
    const prefix = field(block, 345, 155);
    const offset = position + BLOCK;
    position = offset + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      const pax = Buffer.alloc(size);
      readSync(fd, pax, 0, size, offset);
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(pax.toString('utf8'))?.[1] ?? null;
      continue;
    }
    const name = longName ?? (prefix ? `${prefix}/${field(block, 0, 100)}` : field(block, 0, 100));
    longName = null;
    if (type === '0' || type === '') entries.push({ name, size, offset });
  }
}

/** An entry's bytes, whole (for the small ones: the manifest, the key). */
export function readEntry(fd: number, entry: TarEntry): Buffer {
  const bytes = Buffer.alloc(entry.size);
  let done = 0;
  while (done < entry.size) done += readSync(fd, bytes, done, entry.size - done, entry.offset + done);
  return bytes;
}

/** Copies an entry's bytes to a new file (`wx`: never over an existing one). */
export function extractEntry(fd: number, entry: TarEntry, target: string): void {
  const out = openSync(target, 'wx', 0o600);
  try {
    const chunk = Buffer.alloc(1 << 20);
    let done = 0;
    while (done < entry.size) {
      const read = readSync(fd, chunk, 0, Math.min(chunk.length, entry.size - done), entry.offset + done);
      if (read === 0) throw new Error('the backup ends inside a file');
      let written = 0;
      while (written < read) written += writeSync(out, chunk, written, read - written);
      done += read;
    }
  } finally {
    closeSync(out);
  }
}
