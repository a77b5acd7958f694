/**
 * Writes the tokenizer's vocabulary (o200k_base, as the gpt-tokenizer package
 * holds it) as the rank file the engine counts with
 * (`src-main/engine/bpe/o200k_base.ranks`, see src-main/engine/bpe/rank-file.ts).
 * Run after gpt-tokenizer is updated (a test says when):
 *
 *   node scripts/build-token-ranks.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { o200kTokenBytes } from '../src-main/engine/bpe/package-ranks.ts';
import { encodeRankFile } from '../src-main/engine/bpe/rank-file.ts';

const to = join(import.meta.dirname, '..', 'src-main', 'engine', 'bpe', 'o200k_base.ranks');
const file = encodeRankFile(o200kTokenBytes());
writeFileSync(to, file);
console.log(`wrote ${to} (${file.byteLength.toLocaleString('en-US')} bytes)`);
