import { createHash } from 'node:crypto';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { prng } from '../dataset/prng.ts';
import { rowToSample } from '../shapes/index.ts';
import { misdecode } from '../text/mojibake-inject.ts';
import { commonsenseQa, ftfyCases, gsm8k, hellaswag, oasst, truthfulQa } from './real-data.ts';
import { audit, fix, refine } from './run.ts';
import { sharedJsonl } from './shared-data.ts';

/**
 * The golden record of the builtin engine: audit, fix and refine of every
 * real dataset, as it is and with seeded defects injected (so that every rule
 * fires somewhere), one hash per sample and operation over the whole outcome
 * (verdicts, issues, spans, patches, outputs, usage). A speed-up of the
 * engine must leave every hash as it was.
 */

/** Alpaca is CC BY-NC: read from ../shared beside the repo, never copied into it. */
function alpaca(file: string): Sample[] | undefined {
  const rows = sharedJsonl(`datasets/${file}`);
  return rows.length > 0 ? rows.map((row) => rowToSample(row, 'alpaca')) : undefined;
}

/** Defects put into one string: each exercises a rule (or a repair) of the engine. */
const MUTATIONS: ((text: string, random: () => number) => string)[] = [
  (t) => misdecode(t),
  (t) => misdecode(`${t} — café naïve`, 'windows-1252'),
  (t) => misdecode(`${t} Čeština`, 'cp437'),
  (t) => {
    const m = /[^.!?\n]{12,}[.!?]/.exec(t);
    return m
      ? t.slice(0, m.index + m[0].length) + m[0].repeat(2) + t.slice(m.index + m[0].length)
      : t;
  },
  (t) => {
    const lines = t.split('\n');
    lines.splice(1, 0, lines[0] ?? '');
    return lines.join('\n');
  },
  (t) => `${t}\n\n${t}`,
  (t) => t.replace(/ /g, (s, at: number) => (at % 7 === 0 ? '   ' : s)),
  (t) => t.replace(/\n/g, ' \t\n') + '  ',
  (t, r) => t.slice(0, Math.floor(t.length * (0.3 + r() * 0.5))),
  (t) => `${t} and the`,
  (t) => `${t} (the list: 1. first, 2.`,
  () => 'N/A',
  () => 'No input',
  () => '<noinput>',
  () => '',
  () => '   ',
  () => 'TODO',
  () => '[insert answer here]',
  (t) => `Lorem ipsum dolor sit amet, consectetur adipiscing elit. ${t}`,
  () => "As an AI language model, I cannot help with that request. I'm sorry.",
  (t) => `${t} Contact john.doe@gmail.com or call (212) 736-5000.`,
  (t) => `${t} My card is 4111 1111 1111 1111.`,
  (t) => `${t} key: sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD`,
  (t) => `${t} What the fuck, this shit is damn bad.`,
  (t) => `${t} The patient had spastic paralysis of the rectum.`,
  (t) => `<p>${t}</p><div class="x">more</div>`,
  (t) => `${t} See [[Main Page|the page]] and {{cite web}}.`,
  (t) => `${t}\u200b\u200b zero\u00ad width`,
  (t) => `${t}\u0007\u001b[31m`,
  (t) => `${t} \ufffd\ufffd`,
  (t) => `${t} \ud800 lone`,
  (t) => `${t} ${'very '.repeat(12)}good good good good`,
  (t) => `${t} ${'the cat sat on the mat '.repeat(6)}`,
  (t) => `${t} banana quantum sideways purple ran seventeen the of and loudly`,
  (t) => `{{ ${t} }} {} {{}}`,
  (t) => `Click here to subscribe. All rights reserved.\n${t}\nCookie policy | Terms of use`,
  (t) => t.toUpperCase(),
  (t) => `${t}\n\`\`\`js\nconst  x  =  1;   \n\`\`\``,
  (t) => `${t}\n\n- one\n- two\n- three`,
  (t) => `${t} Ã© Ã¨ â€™ Ã ™`,
  (t) => `${t} 9.3 x 1013 meters, 14-May`,
  (t) => `“${t}`,
  (t) => `${t} „Zitat“`,
];

function mutate(text: string, random: () => number): string {
  const pick = MUTATIONS[Math.floor(random() * MUTATIONS.length)];
  return pick ? pick(text, random) : text;
}

/** One seeded variant of a sample: one string of it mutated (or, for choices, the choices). */
function variant(sample: Sample, random: () => number): Sample {
  const copy = structuredClone(sample);
  switch (copy.task_type) {
    case 'text':
      copy.text = mutate(copy.text, random);
      break;
    case 'multiple_choice': {
      const roll = random();
      const i = Math.floor(random() * copy.choices.length);
      if (roll < 0.3) copy.context = mutate(copy.context, random);
      else if (roll < 0.45) copy.choices.push((copy.choices[i] ?? '').toUpperCase());
      else if (roll < 0.55) copy.choices.push(`${copy.choices[i] ?? ''} `);
      else if (roll < 0.65) copy.choices[i] = 'All of the above';
      else if (roll < 0.75) copy.context = copy.context.replace(/\?\s*$/, '');
      else copy.choices[i] = mutate(copy.choices[i] ?? '', random);
      break;
    }
    case 'question_answer': {
      const roll = random();
      if (roll < 0.3) copy.question = mutate(copy.question, random);
      else if (roll < 0.5)
        copy.answer = copy.answer.replace(/#### (\d+)/, (_, n: string) => `#### ${Number(n) + 1}`);
      else copy.answer = mutate(copy.answer, random);
      break;
    }
    case 'conversation': {
      const i = Math.floor(random() * copy.messages.length);
      const message = copy.messages[i];
      if (message) message.content = mutate(message.content, random);
      break;
    }
  }
  return copy;
}

/** The datasets of the golden record, each as it is and with two seeded variants per sample. */
export function goldenDatasets(): { name: string; samples: Sample[] }[] {
  const ftfy = ftfyCases();
  const base: { name: string; samples: Sample[] | undefined }[] = [
    { name: 'gsm8k', samples: gsm8k() },
    { name: 'hellaswag', samples: hellaswag() },
    { name: 'truthfulqa', samples: truthfulQa() },
    { name: 'commonsenseqa', samples: commonsenseQa() },
    { name: 'oasst', samples: oasst() },
    {
      name: 'oasst turns as text',
      samples: oasst().flatMap((c) =>
        c.messages.map((m): Sample => ({ task_type: 'text', text: m.content })),
      ),
    },
    {
      name: 'ftfy',
      samples: [...ftfy.wild, ...ftfy.knownFailures, ...ftfy.negative].map((c): Sample => ({
        task_type: 'text',
        text: c.original,
      })),
    },
    { name: 'alpaca original', samples: alpaca('alpaca_original_300.jsonl') },
    { name: 'alpaca cleaned', samples: alpaca('alpaca_cleaned_300.jsonl') },
  ];
  const out: { name: string; samples: Sample[] }[] = [];
  for (const { name, samples } of base) {
    if (!samples) continue;
    const random = prng(name.length * 7919 + 17);
    out.push({ name, samples });
    out.push({
      name: `${name} (defects)`,
      samples: samples.flatMap((s) => [variant(s, random), variant(s, random)]),
    });
  }
  return out;
}

const hash = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12);

/** Per sample, `audit fix refine` hashes of the whole outcome and its usage. */
export async function goldenRecord(samples: Sample[]): Promise<string[]> {
  const out: string[] = [];
  for (const sample of samples) {
    const a = await audit([sample]);
    const f = await fix([sample]);
    const r = await refine([sample]);
    out.push(
      [
        hash([a.blocks, a.usage.byModel()]),
        hash([f.outcomes, f.usage.byModel()]),
        hash([r.outcomes, r.usage.byModel()]),
      ].join(' '),
    );
  }
  return out;
}

export const GOLDEN_FILE = new URL('./golden-snapshot.json', import.meta.url);
