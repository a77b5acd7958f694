import { describe, expect, it } from 'vitest';
import { parseConventions } from './conventions.ts';
import { commonsenseQa, hellaswag } from './testing/real-data.ts';
import { audit, fix } from './testing/run.ts';
import { asText } from './testing/real-data.ts';

describe('conventions switch checks off', () => {
  it.each([
    ['E-mail addresses are fine in this dataset.', 'pii_email'],
    ['Phone numbers are synthetic and expected.', 'pii_phone'],
    ['Ignore whitespace.', 'whitespace'],
    ['WikiHow markers like [header] are intended', 'wiki_markup'],
    ['Duplicate choices are intentional', 'duplicate_choice'],
    ['profanity is acceptable here', 'profanity'],
    ["don't flag answer_leak", 'answer_leak'],
    ['no_dialogue is fine.', 'no_dialogue'],
    ['Repetition is intended (these are chants).', 'repeated_sentences'],
    ['Placeholders such as N/A are expected.', 'placeholder'],
    ['Refusals are fine: this is a safety set.', 'refusal'],
    ['Answers that restate the question are intended.', 'restates_prompt'],
    ['Scientific notation as written is fine.', 'lost_exponent'],
  ])('"%s" turns off %s', (text, code) => {
    expect(parseConventions(text).off.has(code)).toBe(true);
  });

  it('needs a word of permission: naming a topic alone changes nothing', () => {
    expect(parseConventions('Questions about e-mail safety.').off.size).toBe(0);
  });

  it.each([
    'Do not ignore e-mail addresses.',
    "Don't ignore email addresses.",
    'E-mail addresses are not fine.',
    'E-mail addresses are not acceptable.',
    'Never keep e-mail addresses.',
    'E-mail addresses aren’t allowed.',
    'You cannot leave e-mail addresses in.',
  ])('a negated permission asks for the check: "%s" switches nothing off', (text) => {
    expect([...parseConventions(text).off]).toEqual([]);
  });

  it('a clause after "but" stands apart', () => {
    const { off } = parseConventions('E-mail addresses are fine, but phone numbers are not.');
    expect(off.has('pii_email')).toBe(true);
    expect(off.has('pii_phone')).toBe(false);
    expect(parseConventions('Whitespace is not a defect.').off.has('whitespace')).toBe(true);
    expect(parseConventions("Don't flag whitespace.").off.has('whitespace')).toBe(true);
  });

  it('demonstrably: "Do not ignore e-mail addresses." still fails and redacts one', async () => {
    const sample = asText('Contact me at john.smith@gmail.com for details.');
    const audited = await audit([sample], 1, 'Do not ignore e-mail addresses.');
    expect(audited.blocks[0]?.checks.safety?.passed).toBe(false);
    const fixed = await fix([sample], 3, 'Do not ignore e-mail addresses.');
    expect(fixed.outcomes[0]?.fix).toBeDefined();
    expect(JSON.stringify(fixed.outcomes[0]?.output)).not.toContain('john.smith@gmail.com');
  });

  it('demonstrably: an e-mail address stops failing safety', async () => {
    const sample = asText('Write to maria.lopez@gmail.com today.');
    const strict = await audit([sample]);
    const relaxed = await audit([sample], 1, 'E-mail addresses are expected.');
    expect(strict.blocks[0]?.checks.safety?.passed).toBe(false);
    expect(relaxed.blocks[0]?.checks.safety?.passed).toBe(true);
    const fixed = await fix([sample], 3, 'E-mail addresses are expected.');
    expect(fixed.outcomes[0]?.fix).toBeUndefined();
  });

  it("demonstrably: CommonsenseQA's duplicates pass when duplicates are declared intended", async () => {
    const items = commonsenseQa();
    const relaxed = await audit(items, 1, 'Duplicate choices are intended.');
    expect(relaxed.blocks.filter((b) => b.checks.choices?.passed === false)).toHaveLength(0);
  });

  it("demonstrably: HellaSwag's WikiHow markers stop being reported", async () => {
    const items = hellaswag();
    const strict = await audit(items);
    const relaxed = await audit(
      items,
      1,
      'WikiHow [header] and [step] markers are part of the data.',
    );
    const count = (blocks: typeof strict.blocks) =>
      blocks
        .flatMap((b) => b.checks.formatting?.issues ?? [])
        .filter((i) => i.code === 'wiki_markup').length;
    expect(count(strict.blocks)).toBeGreaterThan(0);
    expect(count(relaxed.blocks)).toBe(0);
  });
});
