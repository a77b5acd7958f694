import { RefineConfig } from '../../../src-shared/schemas/config.ts';
import type { RefineCounts } from '../../../src-shared/schemas/native.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import { runOperationInThread } from './operation.ts';

/**
 * One small sample of each task type, so that a refine runs each type's
 * checks; the text fails its audit (a phone number, mojibake, doubled
 * words), so that the fixers and the re-audit run too.
 */
export const WARM_SAMPLES: Sample[] = [
  {
    task_type: 'text',
    text: 'Call me at 415-555-0132 about the the CafÃ© order. It was was fine, thanks!',
  },
  {
    task_type: 'multiple_choice',
    context: 'Which planet is closest to the Sun?',
    choices: ['Venus', 'Mercury', 'Mars', 'Earth'],
    answer_index: 1,
  },
  {
    task_type: 'question_answer',
    question: 'Tom has 3 apples and buys 4 more. How many apples does he have now?',
    answer: 'He has 3 + 4 = <<3+4=7>>7 apples.\n#### 7',
  },
  {
    task_type: 'conversation',
    messages: [
      { role: 'user', content: 'Can you give me a short tip for writing clear emails?' },
      { role: 'assistant', content: 'Put the request in the first sentence, and keep it short.' },
    ],
  },
];

/**
 * Runs the builtin engine once on this thread, before the server listens: a
 * refine of WARM_SAMPLES. An estimate times its first trial slices on the
 * server's thread (service/datasets/estimate-run.ts), and there the engine's
 * first calls were slow: its rules' regular expressions compiled at their
 * first use and its code not yet optimized, a trial slice of 15 GSM8K rows
 * held the thread 31-44 ms the first time and 3-11 ms after. Warming it
 * here takes that time while nobody waits. Only a speed-up: a failure is
 * logged and the server starts all the same. Returns the refine's counts
 * (undefined when it failed).
 */
export async function warmEngineHere(): Promise<RefineCounts | undefined> {
  try {
    const result = await runOperationInThread(
      { operation: 'refine', samples: WARM_SAMPLES, config: RefineConfig.parse({}) },
      { backend: builtinBackend },
    );
    return result.operation === 'refine' ? result.counts : undefined;
  } catch (error) {
    console.error('the engine could not be warmed up (the first estimate will be slower):', error);
    return undefined;
  }
}
