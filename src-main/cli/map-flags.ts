import { AppError, validationError } from '../../src-shared/errors.ts';
import {
  AnswerForm,
  FieldMapping,
  MAPPING_ROLES,
  MULTI_FIELD_ROLES,
  OasstPaths,
} from '../../src-shared/schemas/mapping.ts';
import { TASK_TYPES, type TaskType } from '../../src-shared/schemas/sample.ts';
import { SHAPE_IDS, type ShapeId } from '../../src-shared/owner/datasets.ts';

/**
 * The CLI's field mapping flags: `--task-type TYPE --map ROLE=FIELD[,FIELD...]`
 * (repeatable; FIELD a dotted path; several fields for `choices` and `prompt`;
 * `--map roles=FROM:TO[,FROM:TO...]` for role values; `--map style=qa`
 * for a fixed style), `--answer-form FORM`, or `--shape ID` for a built-in
 * shape. Validated by the same schema as the app's import.
 */
export const MAP_FLAGS_USAGE = `  --task-type TYPE --map ROLE=FIELD ...  read rows with your own field names (FIELD a dotted path:
                    meta.question; several: --map choices=A,B,C,D, --map prompt=instruction,input;
                    role values: --map roles=human:user,gpt:assistant; --map role_key=from
                    --map content_key=value; a fixed style: --map style=qa)
  --answer-form FORM  multiple choice: zero_based, one_based, letter or text (detected otherwise)
  --shape ID        force a built-in shape: ${SHAPE_IDS.filter((id) => id !== 'custom').join(', ')}
  --oasst-paths best|all  OpenAssistant trees: one conversation per tree along the best-ranked
                    replies (default), or one per root-to-leaf path (all); with --write-back the
                    repairs of all of a tree's paths go back into the one tree`;

export interface MapFlags {
  'task-type'?: string | undefined;
  map?: string[] | undefined;
  'answer-form'?: string | undefined;
  shape?: string | undefined;
  'oasst-paths'?: string | undefined;
}

export function pathsFromFlags(flags: MapFlags): OasstPaths | undefined {
  const value = flags['oasst-paths'];
  if (value === undefined) return undefined;
  const parsed = OasstPaths.safeParse(value);
  if (!parsed.success) {
    throw new AppError('invalid_request', `--oasst-paths must be best or all, got ${value}`);
  }
  if (parsed.data === 'all' && (flags.map?.length || flags['task-type'] !== undefined)) {
    throw new AppError('invalid_request', '--oasst-paths all reads OpenAssistant trees, not --map');
  }
  return parsed.data;
}

export function shapeFromFlags(flags: MapFlags): ShapeId | undefined {
  const shape = flags.shape;
  if (shape === undefined) return undefined;
  if (!(SHAPE_IDS as readonly string[]).includes(shape) || shape === 'custom') {
    throw new AppError(
      'invalid_request',
      `--shape must be one of ${SHAPE_IDS.filter((id) => id !== 'custom').join(', ')}, got ${shape}`,
    );
  }
  if (flags.map?.length || flags['task-type'] !== undefined) {
    throw new AppError('invalid_request', '--shape and --task-type/--map exclude each other');
  }
  return shape as ShapeId;
}

/** The roles a file's role names can stand for (a typo would only show up as a failed audit). */
const CHAT_ROLES = ['system', 'user', 'assistant'];

function roleMap(text: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.lastIndexOf(':');
    if (at <= 0 || at === pair.length - 1) {
      throw new AppError('invalid_request', `--map roles takes FROM:TO pairs, got "${pair}"`);
    }
    const to = pair.slice(at + 1);
    if (!CHAT_ROLES.includes(to)) {
      throw new AppError(
        'invalid_request',
        `--map roles: "${pair}" maps to "${to}", which is not ${CHAT_ROLES.join(', ')}`,
      );
    }
    map[pair.slice(0, at)] = to;
  }
  return map;
}

/** The mapping the flags describe, or undefined when none is given. */
export function mappingFromFlags(flags: MapFlags): FieldMapping | undefined {
  const maps = flags.map ?? [];
  const taskType = flags['task-type'];
  if (maps.length === 0 && taskType === undefined) {
    if (flags['answer-form'] !== undefined) {
      throw new AppError('invalid_request', '--answer-form goes with --task-type multiple_choice');
    }
    return undefined;
  }
  if (taskType === undefined) {
    throw new AppError('invalid_request', `--map needs --task-type (${TASK_TYPES.join(', ')})`);
  }
  if (!(TASK_TYPES as readonly string[]).includes(taskType)) {
    throw new AppError(
      'invalid_request',
      `--task-type must be one of ${TASK_TYPES.join(', ')}, got ${taskType}`,
    );
  }
  const allowed: readonly string[] = MAPPING_ROLES[taskType as TaskType];
  if (maps.length === 0) {
    throw new AppError(
      'invalid_request',
      `--task-type needs --map ROLE=FIELD for its roles (${allowed.join(', ')})`,
    );
  }
  if (flags['answer-form'] !== undefined && taskType !== 'multiple_choice') {
    throw new AppError('invalid_request', '--answer-form goes with --task-type multiple_choice');
  }
  const fields: Record<string, unknown> = {};
  for (const entry of maps) {
    const at = entry.indexOf('=');
    if (at <= 0 || at === entry.length - 1) {
      throw new AppError('invalid_request', `--map takes ROLE=FIELD, got "${entry}"`);
    }
    const role = entry.slice(0, at);
    const value = entry.slice(at + 1);
    if (!allowed.includes(role)) {
      throw new AppError(
        'invalid_request',
        `--map ${role}: ${taskType} has no role "${role}" (its roles: ${allowed.join(', ')})`,
      );
    }
    if (Object.hasOwn(fields, role)) {
      throw new AppError('invalid_request', `--map ${role} is given twice`);
    }
    fields[role] =
      role === 'roles'
        ? roleMap(value)
        : MULTI_FIELD_ROLES.includes(role) && value.includes(',')
          ? value.split(',')
          : value;
  }
  let answerForm: AnswerForm | undefined;
  if (flags['answer-form'] !== undefined) {
    const parsed = AnswerForm.safeParse(flags['answer-form'].replace('-', '_'));
    if (!parsed.success) {
      throw new AppError(
        'invalid_request',
        `--answer-form must be zero_based, one_based, letter or text, got ${flags['answer-form']}`,
      );
    }
    answerForm = parsed.data;
  }
  const parsed = FieldMapping.safeParse({
    task_type: taskType,
    fields,
    ...(answerForm ? { answer_form: answerForm } : {}),
  });
  if (!parsed.success) throw validationError(parsed.error, 'field mapping');
  return parsed.data;
}
