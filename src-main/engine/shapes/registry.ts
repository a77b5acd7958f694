import { AppError } from '../../../src-shared/errors.ts';
import { alpacaShape } from './alpaca.ts';
import { arcShape } from './arc.ts';
import { commonsenseqaShape } from './commonsenseqa.ts';
import { gsm8kShape } from './gsm8k.ts';
import { hellaswagShape } from './hellaswag.ts';
import { mmluShape } from './mmlu.ts';
import { oasstShape } from './oasst.ts';
import { openaiChatShape } from './openai-chat.ts';
import { sampleShape } from './sample.ts';
import { sharegptShape } from './sharegpt.ts';
import { textShape } from './text.ts';
import { truthfulqaShape } from './truthfulqa.ts';
import type { ShapeId, ShapeMapper } from './types.ts';

/**
 * Every shape, most specific first: detection breaks ties in this order
 * (`sample` before everything, CommonsenseQA before ARC, plain text last).
 */
export const MAPPERS: readonly ShapeMapper[] = [
  sampleShape,
  oasstShape,
  truthfulqaShape,
  hellaswagShape,
  commonsenseqaShape,
  arcShape,
  mmluShape,
  sharegptShape,
  openaiChatShape,
  alpacaShape,
  gsm8kShape,
  textShape,
];

const BY_ID = new Map(MAPPERS.map((mapper) => [mapper.info.id, mapper]));

export function mapperFor(shape: ShapeId): ShapeMapper {
  const mapper = BY_ID.get(shape);
  if (!mapper && shape === 'custom') {
    throw new AppError('invalid_request', 'a custom shape needs its field mapping');
  }
  if (!mapper) throw new AppError('invalid_request', `unknown dataset shape "${shape}"`);
  return mapper;
}
