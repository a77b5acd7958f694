import { describe, expect, it } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import { AuditBlock, FixBlock } from '../../src-shared/schemas/blocks.ts';
import { builtinBackend } from './builtin/backend.ts';
import { NO_CONVENTIONS } from './conventions.ts';
import type { EngineBackend } from './backend.ts';
import { auditSamples } from './operations.ts';
import { SampleError } from './sample-error.ts';
import { asText, gsm8k } from './testing/real-data.ts';
import { audit, fix, refine } from './testing/run.ts';
import { countTokens } from './tokens.ts';

describe('audit', () => {
  it('produces schema-valid blocks naming the model and the votes', async () => {
    const { blocks } = await audit(gsm8k().slice(0, 5), 3);
    for (const block of blocks) {
      expect(AuditBlock.parse(block)).toEqual(block);
      expect(block.model).toBe('svc-audit-1');
      expect(block.votes).toBe(3);
      for (const verdict of Object.values(block.checks)) expect(verdict.agreement).toBe(1);
    }
  });

  it('counts every vote in usage with the BPE tokenizer', async () => {
    const sample = asText('The quick brown fox jumps over the lazy dog.');
    const one = await audit([sample], 1);
    const three = await audit([sample], 3);
    const single = one.usage.byModel()['svc-audit-1'];
    expect(single?.input_tokens).toBe(countTokens(sample.text));
    expect(single?.output_tokens).toBeGreaterThan(10);
    expect(three.usage.byModel()['svc-audit-1']).toEqual({
      input_tokens: 3 * (single?.input_tokens ?? 0),
      output_tokens: 3 * (single?.output_tokens ?? 0),
      passes: 3,
    });
  });

  it('counts the conventions as read by every pass', async () => {
    const sample = asText('Hello there, world.');
    const plain = await audit([sample]);
    const withConventions = await audit([sample], 1, 'Lowercase stems are intended.');
    expect(withConventions.usage.total().input_tokens).toBe(
      plain.usage.total().input_tokens + countTokens('Lowercase stems are intended.'),
    );
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      auditSamples(
        gsm8k(),
        { votes: 1 },
        {
          backend: builtinBackend,
          conventions: NO_CONVENTIONS,
          signal: controller.signal,
        },
      ),
    ).rejects.toBeInstanceOf(AppError);
  });

  it('reports progress per sample', async () => {
    const seen: number[] = [];
    await auditSamples(
      gsm8k().slice(0, 4),
      { votes: 1 },
      {
        backend: builtinBackend,
        conventions: NO_CONVENTIONS,
        onProgress: (done) => seen.push(done),
      },
    );
    expect(seen).toEqual([1, 2, 3, 4]);
  });
});

describe('fix', () => {
  it('spends svc-fix-1 tokens per attempt and svc-audit-1 tokens per re-audit', async () => {
    const { usage, outcomes } = await fix([asText('Write to maria.lopez@gmail.com  today.')]);
    expect(FixBlock.parse(outcomes[0]?.fix)).toBeDefined();
    const byModel = usage.byModel();
    expect(byModel['svc-fix-1']?.passes).toBe(1);
    expect(byModel['svc-audit-1']?.passes).toBe(2); // the audit before, the re-audit of the candidate
  });

  it('gives non-text samples a fix block even when nothing was needed', async () => {
    const { outcomes } = await fix(
      gsm8k()
        .slice(1, 2)
        .map((s) => ({ ...s, question: s.question.replace(/  +/g, ' ') })),
    );
    expect(outcomes[0]?.fix).toEqual({ changes: [], flagged: false, attempts: 0 });
  });
});

describe('refine', () => {
  it('returns audit, fix and reaudit; reaudit is null where the fix left the sample alone', async () => {
    const { outcomes } = await refine([asText('A clean sentence.'), asText('<b>Bold</b> claim.')]);
    expect(outcomes[0]?.reaudit).toBeNull();
    expect(outcomes[0]?.fix).toBeUndefined();
    expect(outcomes[1]?.before.checks.formatting?.passed).toBe(false);
    expect(outcomes[1]?.reaudit?.checks.formatting?.passed).toBe(true);
    expect(outcomes[1]?.output).toEqual(asText('Bold claim.'));
  });
});

describe('an unexpected failure on one sample', () => {
  it('stops the batch with an error naming the sample, not a made-up verdict', async () => {
    const boom = new RangeError('Maximum call stack size exceeded');
    const failing: EngineBackend = {
      ...builtinBackend,
      audit: (sample, ctx) =>
        sample.task_type === 'text' && sample.text === 'bad'
          ? Promise.reject(boom)
          : builtinBackend.audit(sample, ctx),
    };
    const run = auditSamples(
      [asText('fine'), asText('bad'), asText('fine too')],
      { votes: 1 },
      { backend: failing, conventions: NO_CONVENTIONS },
    );
    const error: unknown = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SampleError);
    expect(error).not.toBeInstanceOf(AppError); // a bug, reported as one by the edges
    expect((error as SampleError).sampleIndex).toBe(1);
    expect((error as SampleError).message).toMatch(/sample 2 of 3.*RangeError/);
    expect((error as SampleError).cause).toBe(boom);
  });

  it('passes AppErrors (cancellation, upstream failures) through as they are', async () => {
    const refusal = new AppError('service_error', 'upstream down');
    const failing: EngineBackend = { ...builtinBackend, audit: () => Promise.reject(refusal) };
    await expect(
      auditSamples([asText('x')], { votes: 1 }, { backend: failing, conventions: NO_CONVENTIONS }),
    ).rejects.toBe(refusal);
  });
});

describe('reading ahead', () => {
  it('tells the backend of the samples in blocks of prepareAhead, with the same results', async () => {
    const samples = gsm8k().slice(0, 10);
    const blocks: number[] = [];
    const counting: EngineBackend = {
      ...builtinBackend,
      prepare: (block, ctx) => {
        blocks.push(block.length);
        builtinBackend.prepare?.(block, ctx);
      },
    };
    const options = { backend: counting, conventions: NO_CONVENTIONS };
    const whole = await auditSamples(samples, { votes: 1 }, options);
    expect(blocks).toEqual([10]);
    blocks.length = 0;
    const inFours = await auditSamples(samples, { votes: 1 }, { ...options, prepareAhead: 4 });
    expect(blocks).toEqual([4, 4, 2]);
    expect(inFours.blocks).toEqual(whole.blocks);
    expect(inFours.usage.byModel()).toEqual(whole.usage.byModel());
  });
});
