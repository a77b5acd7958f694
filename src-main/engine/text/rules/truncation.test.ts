import { describe, expect, it } from 'vitest';
import { gsm8k, oasst, truthfulQa } from '../../testing/real-data.ts';
import { truncatedRule } from './repetition.ts';

const long =
  'The committee met on Monday to review the budget for the coming year. Several members raised concerns about the cost of the new building.';

describe('truncated', () => {
  it('finds text cut off in its several forms', () => {
    for (const text of [
      `${long} They agreed to postpone the final vote until the`,
      `${long} They agreed to postpone the vote and`,
      `${long} The chair said "we will decide next week`,
      `${long} Der Vorsitzende sagte „wir entscheiden nächste Woche`,
      `${long} The chair (who had chaired it for years`,
      `${long} They will vote on the proposal once the new figures from the finance office have`,
      'Here are the steps:\n1. Preheat the oven.\n2. Mix the flour and sugar.\n3.',
      'Here are five tips for better sleep:\n1. Keep a schedule.\n2. Avoid caffeine late.\n3. Keep the room dark.',
      'Steps:\n- Open the box.\n- Take out the parts.\n- Read the manual before you start the',
      'Steps:\n- Open the box.\n- Take out the parts.\n- Read the manual carefully before you',
      // the tags around the words are not words: a fix that strips them reveals nothing new
      `<div>${long} They agreed to postpone the final vote until the</div>`,
      `${long} They agreed to postpone the vote and<br>`,
      `${long} They agreed to <b>postpone</b> the vote and</div></div>`,
    ]) {
      expect(truncatedRule.detect(text), text).not.toBeNull();
    }
  });

  it('leaves short answers, lists, headings, questions and code alone', () => {
    for (const text of [
      '42',
      'Paris',
      'The capital of France',
      '- apples\n- pears\n- plums',
      '1. Red\n2. Green\n3. Blue',
      `${long}\n\n## Next steps`,
      'What are you looking for',
      `${long} A good guide to building one is at https://developer.mozilla.org/en-US/docs/Mozilla/Add-ons/WebExtensions/Build_a_cross_browser_extension`,
      'Who is this gift for and when is the party going to start for',
      `${long} Use the following code:\n\n\`\`\`\nfor x in items: print(x)\n\`\`\``,
      'Roses are red\nViolets are blue\nSugar is sweet\nAnd so are you',
      // German quotes open low and close high: balanced, not an open quote
      '„Handwerk bringt dich überall hin“: Von der YOU bis nach Monaco',
      'Er sagte „Wir sehen uns morgen” und ging nach Hause, ohne sich noch einmal umzudrehen.',
    ]) {
      expect(truncatedRule.detect(text), text).toBeNull();
    }
  });

  it("reads a prompt's missing end mark as where its writer stopped, not as a cut", () => {
    const user = { freeText: true, path: '/messages/0/content', role: 'user' };
    const assistant = { ...user, path: '/messages/1/content', role: 'assistant' };
    // Alpaca's prompts: an instruction, then the material it gives, unpunctuated
    const prompt = `Identify the parts of speech in each word of the following sentence and explain how you found them:\n\nThe fluffy cat jumped through the open window of the old house on the hill`;
    expect(truncatedRule.detect(prompt, user)).toBeNull();
    expect(truncatedRule.detect(prompt, assistant)).not.toBeNull();
    expect(truncatedRule.detect(prompt)).not.toBeNull();
    // the other signs of a cut still count in a prompt
    for (const text of [
      `${long} They agreed to postpone the final vote until the`,
      `${long} The chair said "we will decide next week`,
      'Steps:\n- Open the box.\n- Take out the parts.\n- Read the manual carefully before you',
    ]) {
      expect(truncatedRule.detect(text, user), text).not.toBeNull();
    }
  });

  it('stays rare on real clean data', () => {
    const texts = [
      ...gsm8k().map((s) => s.answer),
      ...truthfulQa().map((s) => s.context),
      ...oasst().flatMap((c) => c.messages.map((m) => m.content)),
    ];
    const flagged = texts.filter((t) => truncatedRule.detect(t) !== null);
    expect(flagged.length).toBeLessThan(texts.length * 0.02);
  });
});
