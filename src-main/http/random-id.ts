import { randomFillSync } from 'node:crypto';

/**
 * Random hex for identifiers that are not secrets (request ids, completion
 * ids). `randomBytes` asks the OS for entropy on every call, which shows in a
 * one-sample request's profile (two ids per request); here one fill of a pool
 * serves a few hundred ids. Never use it for keys or tokens: a pool's bytes
 * sit in memory until they are handed out.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

export function randomHex(bytes: number): string {
  if (bytes > POOL_BYTES) throw new RangeError(`at most ${POOL_BYTES} bytes, got ${bytes}`);
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}
