/**
 * API answers compressed for clients that accept it (decision 015): the catalogue a first page loads is ~21 kB of JSON,
 * ~3 kB in brotli. Brotli at quality 4 costs about as much CPU as gzip and still beats it; answers under 1 kB (a
 * price quote) go out as they are, where compressing would cost more than it saves. The built web files are
 * compressed ahead of time (build/compress.ts) and sent as they are: an answer that already carries a
 * Content-Encoding is left alone.
 */
import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

export async function registerCompression(fastify: FastifyInstance): Promise<void> {
  await fastify.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
