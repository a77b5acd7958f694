/**
 * The file of a BPE vocabulary's tokens as bytes, by rank (`o200k_base.ranks`,
 * written by `scripts/build-token-ranks.ts`): "BPE1", the token count (u32,
 * little-endian), each token's length in bytes (u8; o200k_base's longest is
 * 128; 0 for a rank no lookup finds), then every token's bytes in rank order. 1.6 MB read in a millisecond,
 * where the tokenizer package's module is 2.5 MB of JavaScript to compile and
 * run and a 200k-entry Map to build, in every thread that counts.
 */

const MAGIC = 0x31455042; // "BPE1"
const HEADER = 8;

/** Token bytes by rank: token r is `bytes[starts[r]..starts[r + 1])`. */
export interface RankBytes {
  bytes: Uint8Array;
  starts: Uint32Array;
}

export function encodeRankFile(tokens: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const token of tokens) {
    if (token.length > 255) {
      throw new Error(`a token of ${token.length} bytes does not fit the rank file`);
    }
    total += token.length;
  }
  const file = new Uint8Array(HEADER + tokens.length + total);
  const view = new DataView(file.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, tokens.length, true);
  let at = HEADER + tokens.length;
  tokens.forEach((token, rank) => {
    file[HEADER + rank] = token.length;
    file.set(token, at);
    at += token.length;
  });
  return file;
}

export function decodeRankFile(file: Uint8Array): RankBytes {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (file.byteLength < HEADER || view.getUint32(0, true) !== MAGIC) {
    throw new Error('not a BPE rank file');
  }
  const count = view.getUint32(4, true);
  const starts = new Uint32Array(count + 1);
  let total = 0;
  for (let rank = 0; rank < count; rank++) {
    starts[rank] = total;
    total += file[HEADER + rank] as number;
  }
  starts[count] = total;
  const from = HEADER + count;
  if (from + total !== file.byteLength) throw new Error('a BPE rank file of the wrong length');
  return { bytes: file.subarray(from, from + total), starts };
}
