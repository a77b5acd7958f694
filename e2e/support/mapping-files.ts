import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Small files in shapes no built-in dataset shape matches, for the field
 * mapping tests, written byte for byte as a user's tool would have written
 * them; and a CSV reader that keeps each record's and each cell's source text
 * so an export can be compared with its source record by record.
 */

// ---------------------------------------------------------------- MMLU-style CSV

export const MMLU_COLUMNS = ['question', 'A', 'B', 'C', 'D', 'answer'] as const;
type MmluColumn = (typeof MMLU_COLUMNS)[number];

export interface MmluRow {
  question: string;
  A: string;
  B: string;
  C: string;
  D: string;
  answer: 'A' | 'B' | 'C' | 'D';
  /** Cells written quoted though they need not be (as some tools do). */
  quoted?: MmluColumn[];
  /** Cells holding mojibake, with the text they should read after a fix. */
  mojibake?: Partial<Record<MmluColumn, string>>;
}

export const MMLU_ROWS: MmluRow[] = [
  {
    question: 'What is the capital of France?',
    A: 'Berlin',
    B: 'Madrid',
    C: 'Paris',
    D: 'Rome',
    answer: 'C',
  },
  {
    question: 'Which of these numbers is prime: 21, 27, 29 or 33?',
    A: '21',
    B: '27',
    C: '29',
    D: '33',
    answer: 'C',
  },
  {
    question: 'Which composer wrote "FÃ¼r Elise"?',
    A: 'Mozart',
    B: 'Beethoven',
    C: 'Bach',
    D: 'Chopin',
    answer: 'B',
    mojibake: { question: 'Which composer wrote "Für Elise"?' },
  },
  {
    question: 'In economics, what does GDP stand for?',
    A: 'Gross Domestic Product',
    B: 'General Demand Price',
    C: 'Government Debt Percentage',
    D: 'Gross Dividend Payout',
    answer: 'A',
    quoted: ['A', 'B', 'answer'],
  },
  {
    question: 'Whatâ€™s the chemical symbol for sodium?',
    A: 'So',
    B: 'Sd',
    C: 'Na',
    D: 'Nm',
    answer: 'C',
    mojibake: { question: 'What’s the chemical symbol for sodium?' },
  },
  {
    question: 'Which planet is known as the Red Planet?',
    A: 'Venus',
    B: 'Mars',
    C: 'Jupiter',
    D: 'Saturn',
    answer: 'B',
    quoted: ['question'],
  },
  {
    question: 'Solve for x: 2x + 3 = 11',
    A: '3',
    B: '4',
    C: '5',
    D: '8',
    answer: 'B',
  },
  {
    question: 'Which gas do plants take in, mostly,\nfrom the air?',
    A: 'Carbon dioxide',
    B: 'Oxygen',
    C: 'Nitrogen',
    D: 'Helium',
    answer: 'A',
  },
  {
    question: 'Who wrote "Pride and Prejudice"?',
    A: 'Jane Austen',
    B: 'Brontë, Charlotte',
    C: 'Mary Shelley',
    D: 'George Eliot',
    answer: 'A',
  },
  {
    question: 'Which dessert has a caramelised sugar top?',
    A: 'Tiramisu',
    B: 'CrÃ¨me brÃ»lÃ©e',
    C: 'Panna cotta',
    D: 'Gelato',
    answer: 'B',
    mojibake: { B: 'Crème brûlée' },
  },
  {
    question: 'What is 15% of 200?',
    A: '15',
    B: '30',
    C: '20',
    D: '35',
    answer: 'B',
  },
  {
    question: 'Which ocean is the largest?',
    A: 'Atlantic',
    B: 'Indian',
    C: 'Arctic',
    D: 'Pacific',
    answer: 'D',
  },
];

const csvCell = (value: string, force: boolean): string =>
  force || /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

/** The MMLU-style CSV's text: a header, one record per row, LF line ends, a final LF. */
export function mmluCsv(rows: readonly MmluRow[] = MMLU_ROWS): string {
  const records = rows.map((row) =>
    MMLU_COLUMNS.map((column) => csvCell(row[column], row.quoted?.includes(column) ?? false)).join(
      ',',
    ),
  );
  return [MMLU_COLUMNS.join(','), ...records].join('\n') + '\n';
}

// ---------------------------------------------------------------- JSON Lines files

/** Dolly-style rows: an instruction, an often empty context, a response, a category. */
export const DOLLY_ROWS = [
  {
    instruction: 'When did Virgin Australia start operating?',
    context:
      'Virgin Australia, the trading name of Virgin Australia Airlines Pty Ltd, commenced services on 31 August 2000 as Virgin Blue, with two aircraft on a single route.',
    response: 'Virgin Australia commenced services on 31 August 2000 as Virgin Blue.',
    category: 'closed_qa',
  },
  {
    instruction: 'Which is a species of fish? Tope or Rope',
    context: '',
    response: 'Tope',
    category: 'classification',
  },
  {
    instruction: 'Why can camels survive for long without water?',
    context: '',
    response: 'Camels use the fat in their humps to keep them filled with energy and hydration.',
    category: 'open_qa',
  },
  {
    instruction: 'Give me a list of three primary colours.',
    context: '',
    response: 'Red, blue and yellow.',
    category: 'brainstorming',
  },
  {
    instruction: 'Summarise the passage in one sentence.',
    context: 'The Loch Ness Monster is a creature in Scottish folklore said to inhabit Loch Ness.',
    response: 'Nessie is a folkloric creature said to live in Loch Ness.',
    category: 'summarization',
  },
  {
    instruction: 'Who wrote the novel Nineteen Eighty-Four?',
    context: '',
    response: 'George Orwell wrote Nineteen Eighty-Four, published in 1949.',
    category: 'open_qa',
  },
];

/** ShareGPT-like rows with their own keys: `dialog` of `{speaker, utterance}`, speakers human and bot. */
export const DIALOG_ROWS = [
  {
    id: 'd1',
    dialog: [
      { speaker: 'human', utterance: 'How do I boil an egg?' },
      { speaker: 'bot', utterance: 'Put it in boiling water for about nine minutes.' },
    ],
  },
  {
    id: 'd2',
    dialog: [
      { speaker: 'human', utterance: 'What is the tallest mountain on Earth?' },
      { speaker: 'bot', utterance: 'Mount Everest, at 8,849 metres above sea level.' },
      { speaker: 'human', utterance: 'And the second tallest?' },
      { speaker: 'bot', utterance: 'K2, at 8,611 metres.' },
    ],
  },
  {
    id: 'd3',
    dialog: [
      { speaker: 'human', utterance: 'Translate "thank you" into French.' },
      { speaker: 'bot', utterance: 'Merci.' },
    ],
  },
  {
    id: 'd4',
    dialog: [
      { speaker: 'human', utterance: 'Name a prime number greater than ten.' },
      { speaker: 'bot', utterance: 'Eleven.' },
    ],
  },
];

/** Nested question/answer rows: `{id, meta: {question, answer}}`. */
export const NESTED_ROWS = [
  { id: 1, meta: { question: 'How many legs does a spider have?', answer: 'Eight' } },
  {
    id: 2,
    meta: { question: 'What is the boiling point of water at sea level?', answer: '100 °C' },
  },
  { id: 3, meta: { question: 'Which element has the symbol Fe?', answer: 'Iron' } },
  { id: 4, meta: { question: 'How many continents are there?', answer: 'Seven' } },
  { id: 5, meta: { question: 'Who painted the Mona Lisa?', answer: 'Leonardo da Vinci' } },
];

/** Writes rows as JSON Lines (one `JSON.stringify` a line, a final LF) and returns the path. */
export function writeJsonl(dir: string, name: string, rows: readonly unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  return path;
}

// ---------------------------------------------------------------- CSV with source text

export interface CsvCell {
  /** The cell's source text, quotes included. */
  raw: string;
  value: string;
}

export interface CsvRecord {
  /** The record's source text without its line end. */
  raw: string;
  cells: CsvCell[];
}

/**
 * Splits CSV text (RFC 4180: `"` quoting, `""` escapes, LF or CRLF line ends,
 * line ends inside quotes belong to the cell) into records, keeping the
 * source text of every record and cell. Throws on a stray quote.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let i = 0;
  while (i < text.length) {
    const start = i;
    const cells: CsvCell[] = [];
    for (;;) {
      const cellStart = i;
      let value = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new Error(`unclosed quote in the record at ${start}`);
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              value += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          value += text.charAt(i);
          i++;
        }
      } else {
        while (i < text.length && !',\r\n'.includes(text[i] ?? '')) {
          if (text[i] === '"') throw new Error(`a quote inside an unquoted cell at ${i}`);
          value += text.charAt(i);
          i++;
        }
      }
      cells.push({ raw: text.slice(cellStart, i), value });
      if (text[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    const end = i;
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    else if (i < text.length) throw new Error(`unexpected ${JSON.stringify(text[i])} at ${i}`);
    records.push({ raw: text.slice(start, end), cells });
  }
  return records;
}

/** Where two texts first differ, with some context, for a readable failure. */
export function firstDifference(actual: string, expected: string): string | null {
  if (actual === expected) return null;
  let at = 0;
  while (at < actual.length && actual[at] === expected[at]) at++;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 40), at + 40));
  return `first difference at character ${at} (lengths ${actual.length} and ${expected.length}): got ${around(actual)}, expected ${around(expected)}`;
}
