import { z } from 'zod';
import { TaskType } from './sample.ts';

/**
 * A field mapping: which of a row's fields fill the roles of a task type. The
 * built-in dataset shapes are named, ready-made mappings; a file with other
 * field names gets one from the import preview or the CLI's `--map` flags.
 *
 * A SOURCE is a dotted path into the row (`meta.question`; a key that itself
 * holds a dot is matched whole first), or a list of paths for the roles that
 * take several (`choices` from columns `A,B,C,D`; `prompt` from `instruction`
 * and `input`, joined by a blank line, empty parts left out).
 */

export const MAPPING_ROLES = {
  text: ['text'],
  multiple_choice: ['context', 'choices', 'answer', 'style'],
  question_answer: ['question', 'answer'],
  conversation: ['messages', 'role_key', 'content_key', 'roles', 'system', 'prompt', 'response'],
} as const satisfies Record<TaskType, readonly string[]>;

export type MappingRole = (typeof MAPPING_ROLES)[keyof typeof MAPPING_ROLES][number];

/** Roles that may name several fields (a list of paths). */
export const MULTI_FIELD_ROLES: readonly string[] = ['choices', 'prompt'];

/**
 * How a multiple-choice answer is written: a 0-based index, a 1-based index,
 * a letter (A = the first choice), or the text of the right choice. Detected
 * per file; a re-pointed answer is written back in the same form.
 */
export const ANSWER_FORMS = ['zero_based', 'one_based', 'letter', 'text'] as const;
export const AnswerForm = z.enum(ANSWER_FORMS);
export type AnswerForm = z.infer<typeof AnswerForm>;

/** The fixed values `style` can take instead of a field. */
export const FIXED_STYLES = ['qa', 'continuation'] as const;

const FieldPath = z
  .string()
  .min(1)
  .max(500)
  .meta({ description: 'A dotted path into the row, e.g. `meta.question`.' });

const Source = z.union([FieldPath, z.array(FieldPath).min(1).max(64)]);

const RoleMap = z
  .record(z.string().min(1).max(200), z.string().min(1).max(200))
  .meta({ description: 'The file’s role names and the roles they stand for: `{human: "user"}`.' });

export const MappingFields = z
  .strictObject({
    text: Source.optional(),
    context: Source.optional(),
    choices: Source.optional(),
    answer: Source.optional(),
    style: Source.optional().meta({
      description: 'A field holding qa/continuation, or the fixed value `qa` or `continuation`.',
    }),
    question: Source.optional(),
    messages: Source.optional(),
    role_key: z.string().min(1).max(200).optional(),
    content_key: z.string().min(1).max(200).optional(),
    roles: RoleMap.optional(),
    system: Source.optional(),
    prompt: Source.optional(),
    response: Source.optional(),
  })
  .meta({
    description: 'Role -> SOURCE: a dotted path, or a list of paths for choices and prompt.',
  });
export type MappingFields = z.infer<typeof MappingFields>;

const REQUIRED: Record<TaskType, readonly (keyof MappingFields)[][]> = {
  text: [['text']],
  multiple_choice: [['context', 'choices', 'answer']],
  question_answer: [['question', 'answer']],
  // One of two forms: a messages array, or a prompt and a response.
  conversation: [['messages'], ['prompt', 'response']],
};

const SINGLE_PATH_ROLES = new Set([
  'text',
  'context',
  'answer',
  'style',
  'question',
  'messages',
  'system',
  'response',
]);

export const FieldMapping = z
  .strictObject({
    task_type: TaskType,
    fields: MappingFields,
    answer_form: AnswerForm.optional().meta({
      description: 'multiple_choice: how `answer` is written; detected from the rows when absent.',
    }),
  })
  .superRefine((mapping, ctx) => {
    const allowed: readonly string[] = MAPPING_ROLES[mapping.task_type];
    const given = Object.keys(mapping.fields).filter(
      (role) => mapping.fields[role as keyof MappingFields] !== undefined,
    );
    for (const role of given) {
      if (!allowed.includes(role)) {
        ctx.addIssue({
          code: 'custom',
          path: ['fields', role],
          message: `${mapping.task_type} has no role "${role}" (its roles: ${allowed.join(', ')})`,
        });
      } else if (SINGLE_PATH_ROLES.has(role) && Array.isArray(mapping.fields[role as 'text'])) {
        const list = mapping.fields[role as 'text'] as string[];
        if (list.length !== 1) {
          ctx.addIssue({
            code: 'custom',
            path: ['fields', role],
            message: `"${role}" takes one field, not ${list.length}`,
          });
        }
      }
    }
    const forms = REQUIRED[mapping.task_type];
    const complete = forms.some((form) => form.every((role) => given.includes(role)));
    if (!complete) {
      const wanted = forms.map((form) => form.join(' + ')).join(', or ');
      ctx.addIssue({
        code: 'custom',
        path: ['fields'],
        message: `a ${mapping.task_type} mapping needs ${wanted}`,
      });
    }
    if (
      mapping.task_type === 'conversation' &&
      given.includes('messages') &&
      (given.includes('prompt') || given.includes('response'))
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['fields'],
        message:
          'a conversation comes from a messages array or from a prompt and a response, not both',
      });
    }
  });
export type FieldMapping = z.infer<typeof FieldMapping>;

/** One of a file's fields as the preview lists it. */
export const SourceField = z.object({
  path: z.string(),
  kind: z
    .enum(['string', 'number', 'boolean', 'null', 'array', 'object', 'mixed'])
    .meta({ description: 'What the field holds in the rows read.' }),
  sample: z.string().meta({ description: 'The first value, shortened.' }),
  rows: z.int().meta({ description: 'How many of the rows read have it.' }),
});
export type SourceField = z.infer<typeof SourceField>;

/**
 * Whether a field's sample reads as text (two words at least) rather than a
 * label or an id: only such a field is offered as a text without a name
 * that says so (a file of ids, scores and `"match": "exact"` holds no text).
 */
export const readsAsWords = (sample: string): boolean => /\S\s+\S/u.test(sample);

/** How OpenAssistant message trees become rows. */
export const OASST_PATHS = ['best', 'all'] as const;
export const OasstPaths = z.enum(OASST_PATHS).meta({
  description:
    '`best`: one row per tree along the best-ranked replies; `all`: a row per root-to-leaf path.',
});
export type OasstPaths = z.infer<typeof OasstPaths>;
