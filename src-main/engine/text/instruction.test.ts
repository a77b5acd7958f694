import { describe, expect, it } from 'vitest';
import type { Issue } from '../../../src-shared/schemas/blocks.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { audit, fix } from '../testing/run.ts';
import { standDownNote } from './instruction.ts';

const chat = (prompt: string, reply: string): Sample => ({
  task_type: 'conversation',
  messages: [
    { role: 'user', content: prompt },
    { role: 'assistant', content: reply },
  ],
});

const LETTER =
  'Dear [Recipient],\n\nI am writing to recommend [Name] for the position of engineer. ' +
  'I have worked with [Name] for three years and found them careful and kind.\n\n' +
  'Sincerely,\n[Your Name]';
const ESSAY =
  'I grew up in a small town by the sea. My father fixed boats for a living. ' +
  'Watching him taught me patience and care.';

/** Every issue of a sample's audit with `code`. */
async function issuesOf(sample: Sample, code: string): Promise<Issue[]> {
  const { blocks } = await audit([sample]);
  return Object.values(blocks[0]?.checks ?? {})
    .flatMap((verdict) => verdict.issues)
    .filter((issue) => issue.code === code);
}

describe('checks that read the instruction', () => {
  it('leave placeholders asked for (a letter template) as a warning that names the instruction', async () => {
    const asked = chat('Write a letter of recommendation for a former colleague.', LETTER);
    const [issue] = await issuesOf(asked, 'placeholder');
    expect(issue?.severity).toBe('warning');
    expect(issue?.message).toMatch(
      /the instruction asks for a template \("Write a letter of recommendation/,
    );
    const { blocks } = await audit([asked]);
    expect(blocks[0]?.passed).toBe(true);
    // The fix leaves what was asked for as it is.
    const { outcomes } = await fix([asked]);
    expect(outcomes[0]?.output).toEqual(asked);

    // Not asked for: the same reply fails.
    const unasked = chat('Tell me about your best colleague.', LETTER);
    expect((await issuesOf(unasked, 'placeholder'))[0]?.severity).toBe('error');
  });

  it('still fail a reply that is nothing but a placeholder, whatever was asked', async () => {
    const issues = await issuesOf(
      chat('Generate a valid email address for this person', 'N/A'),
      'placeholder',
    );
    expect(issues[0]?.severity).toBe('error');
  });

  it('leave a repetition asked for ("Duplicate this essay") and fix none of it', async () => {
    const asked = chat(`Duplicate this admission essay.\n\n${ESSAY}`, `${ESSAY}\n\n${ESSAY}`);
    const [issue] = await issuesOf(asked, 'repeated_sentences');
    expect(issue?.severity).toBe('warning');
    expect(issue?.message).toMatch(
      /asks for the repetition \("Duplicate this admission essay\."\)/,
    );
    const { outcomes } = await fix([asked]);
    expect(outcomes[0]?.output).toEqual(asked);

    const unasked = chat(`Summarize this admission essay.\n\n${ESSAY}`, `${ESSAY}\n\n${ESSAY}`);
    expect((await issuesOf(unasked, 'repeated_sentences'))[0]?.severity).toBe('error');
  });

  it('leave markup asked for in an answer to a question', async () => {
    const sample: Sample = {
      task_type: 'question_answer',
      question: 'Write an HTML snippet that shows one word in bold.',
      answer: 'Here it is: <b>word</b> in a sentence.',
    };
    const [issue] = await issuesOf(sample, 'markup_debris');
    expect(issue?.severity).toBe('warning');
    expect(issue?.message).toMatch(/asks for markup/);
    const { outcomes } = await fix([sample]);
    expect(outcomes[0]?.output).toEqual(sample);
  });

  it('leave an answer that says its prompt again as a warning where the prompt asks for that', async () => {
    for (const [prompt, reply, asked] of [
      ['Echo: good morning everyone here', 'Good morning everyone here', 'the repetition'],
      ['Repeat after me', 'Repeat after me', 'the repetition'],
      ['Say "I am ready to start now"', 'I am ready to start now', 'its words said back'],
    ] as const) {
      const [issue] = await issuesOf(chat(prompt, reply), 'restates_prompt');
      expect(issue?.severity, prompt).toBe('warning');
      expect(issue?.message, prompt).toContain(`the instruction asks for ${asked}`);
    }
    // an echo nobody asked for stays an error
    const [echo] = await issuesOf(
      chat('Name three primary colours.', 'Name three primary colours'),
      'restates_prompt',
    );
    expect(echo?.severity).toBe('error');
    expect(echo?.message).toBe('the answer only restates the user turn before it');
    expect(standDownNote('restates_prompt', 'Say why the sky is blue.', 'x')).toBeNull();
  });

  it('read the instruction, not the input it works on, nor a word problem', () => {
    // the input paragraph of an Alpaca prompt asks for nothing
    expect(
      standDownNote(
        'repeated_sentences',
        'Summarize the passage.\n\nDuplicate keys were found, so we copy the table.',
        ESSAY,
      ),
    ).toBeNull();
    // a GSM8K question that says "twice" asks for no repetition
    expect(
      standDownNote(
        'repeated_sentences',
        'Gloria has twice as many shoes as Jane. How many shoes do they have?',
        ESSAY,
      ),
    ).toBeNull();
    expect(standDownNote('placeholder', 'Generate a valid email address for him', LETTER)).toBe(
      null,
    );
    expect(standDownNote('repeated_ngrams', 'Construct a truth table for p and q.', 'T T')).toMatch(
      /asks for a list/,
    );
    expect(
      standDownNote('repeated_ngrams', 'List three attractions.', ESSAY, 'very very very'),
    ).toBeNull();
    // a song repeats its chorus, a schedule its daily lines
    expect(
      standDownNote(
        'repeated_lines',
        'Write a song about Angela Merkel in the style of The Beatles.',
        ESSAY,
      ),
    ).toMatch(/asks for the repetition/);
    expect(
      standDownNote(
        'repeated_lines',
        'Create a weekly training plan for strength and endurance.',
        ESSAY,
      ),
    ).toMatch(/asks for a list/);
    expect(
      standDownNote('repeated_lines', 'Tell me about songs of the Beatles.', ESSAY),
    ).toBeNull();
    // rules that read nothing of the instruction never stand down
    expect(standDownNote('profanity', 'Repeat after me.', ESSAY)).toBeNull();
  });
});
