import { AppError, validationError } from '../../../src-shared/errors.ts';
import { FieldMapping, type AnswerForm } from '../../../src-shared/schemas/mapping.ts';
import type { ChatMessage, Sample } from '../../../src-shared/schemas/sample.ts';
import { labelsFor } from '../shapes/arc.ts';
import { describe, instead, isRecord, isStringArray, sampleOf } from '../shapes/fields.ts';
import { roleVocabulary } from '../shapes/roles.ts';
import type { Row, ShapeInfo, ShapeMapper } from '../shapes/types.ts';
import { describeForm, readAnswer, writeAnswer } from './answer-form.ts';
import { getPath, hasPath, setPath, topKeyOf } from './paths.ts';
import { joinParts, splitJoined } from './joined.ts';

/**
 * A field mapping as a shape: rows mapped to samples through the mapping's
 * paths, and (fixed) samples written back into the fields they came from, in
 * the source's own form and types. A fix that cannot be written back without
 * guessing (a repair spanning two joined fields, turns a prompt/response row
 * cannot hold) is a conflict: `toRow` throws, and the caller keeps the row as
 * it was and says why.
 */

type Problem = string | undefined;

const listOf = (source: string | readonly string[] | undefined): readonly string[] =>
  source === undefined ? [] : typeof source === 'string' ? [source] : source;
const oneOf = (source: string | readonly string[] | undefined): string | undefined =>
  listOf(source)[0];

/** A scalar as the text a role reads: strings as they are, numbers and booleans as their text. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * A new text in the original value's type: an unchanged value stays as it was,
 * numbers stay numbers. A `null` (read as empty text) stays `null` while the
 * text is still empty, else an unchanged sample would turn it into `""`.
 */
export function backLike(original: unknown, text: string): unknown {
  if (textOf(original) === text) return original;
  if (original === null && text === '') return original;
  if (typeof original === 'number' && String(Number(text)) === text) return Number(text);
  return text;
}

const empty = (value: unknown): boolean => value === undefined || value === null || value === '';

function textField(row: Row, path: string, role: string): Problem {
  if (!hasPath(row, path)) return `"${path}" (${role}) is missing`;
  const value = getPath(row, path);
  return textOf(value) === undefined
    ? `"${path}" (${role}) must be text, ${instead(value)}`
    : undefined;
}

export function mappingInfo(mapping: FieldMapping): ShapeInfo {
  return {
    id: 'custom',
    label: 'the field mapping',
    taskType: mapping.task_type,
    description: 'Fields mapped by hand.',
  };
}

function conflict(problem: string): AppError {
  return new AppError('invalid_request', `the repair cannot be written back: ${problem}`);
}

/** The choices of a row: one array field, or several fields with trailing empty ones left out. */
export function choicesOf(row: Row, paths: readonly string[]): string[] | undefined {
  if (paths.length === 1) {
    const value = getPath(row, paths[0] as string);
    if (!Array.isArray(value)) return undefined;
    const texts = value.map(textOf);
    return texts.every((t) => t !== undefined) ? texts : undefined;
  }
  const values = paths.map((path) => getPath(row, path));
  while (values.length > 0 && empty(values.at(-1))) values.pop();
  const texts = values.map((value) => (value === null || value === undefined ? '' : textOf(value)));
  return texts.every((t) => t !== undefined) ? texts : undefined;
}

function choicesProblem(row: Row, paths: readonly string[]): Problem {
  if (paths.length === 1) {
    const path = paths[0] as string;
    if (!hasPath(row, path)) return `"${path}" (choices) is missing`;
    const value = getPath(row, path);
    if (!Array.isArray(value)) return `"${path}" (choices) must be an array, ${instead(value)}`;
    const bad = value.findIndex((item) => textOf(item) === undefined);
    return bad >= 0
      ? `"${path}[${bad}]" (a choice) must be text, ${instead(value[bad])}`
      : undefined;
  }
  const present = paths.filter((path) => hasPath(row, path));
  if (present.length === 0) return `none of the choice fields ${paths.join(', ')} is present`;
  for (const path of paths) {
    const value = getPath(row, path);
    if (!empty(value) && textOf(value) === undefined) {
      return `"${path}" (a choice) must be text, ${instead(value)}`;
    }
  }
  return (choicesOf(row, paths)?.length ?? 0) === 0
    ? `the choice fields ${paths.join(', ')} are empty`
    : undefined;
}

function styleOf(row: Row, source: string | undefined): 'qa' | 'continuation' | undefined {
  if (source === undefined || source === 'qa' || source === 'continuation')
    return source === 'continuation' ? 'continuation' : 'qa';
  const value = getPath(row, source);
  return value === 'qa' || value === 'continuation' ? value : undefined;
}

const isFixedStyle = (source: string | undefined): boolean =>
  source === undefined || source === 'qa' || source === 'continuation';

/**
 * Every key a path may start with at the top of a row (`a`, `a.b`, `a.b.c`
 * for `a.b.c`: which one it is depends on the row's keys).
 */
function prefixesOf(path: string): string[] {
  const prefixes: string[] = [];
  for (let dot = path.indexOf('.'); dot > 0; dot = path.indexOf('.', dot + 1)) {
    prefixes.push(path.slice(0, dot));
  }
  return [...prefixes, path];
}

/**
 * Compiles a mapping (with its answer form, for multiple choice) into a shape.
 * The mapping is validated first: the compiled shape reads its required roles
 * without further checks, so an incomplete one must not get this far.
 */
export function mappingShape(given: FieldMapping, detectedForm?: AnswerForm): ShapeMapper {
  const parsed = FieldMapping.safeParse(given);
  if (!parsed.success) throw validationError(parsed.error, 'field mapping');
  const mapping = parsed.data;
  const { fields } = mapping;
  const info = mappingInfo(mapping);
  const paths = (Object.entries(fields) as [string, string | string[] | undefined][])
    .filter(([role]) => !['role_key', 'content_key', 'roles'].includes(role))
    // A one-item list `["qa"]` is the fixed style too (styleOf reads the first item).
    .filter(([role, source]) => !(role === 'style' && isFixedStyle(oneOf(source))))
    .flatMap(([, source]) => listOf(source));
  const form: AnswerForm = mapping.answer_form ?? detectedForm ?? 'zero_based';
  const roleKey = fields.role_key ?? 'role';
  const contentKey = fields.content_key ?? 'content';
  const vocabulary = roleVocabulary(fields.roles ?? {});

  const shape: ShapeMapper = {
    info,
    /*
     * rowToSample adds every row key that is neither owned nor in the sample as
     * passthrough. withRest already carries the unmapped keys (and the unmapped
     * remainder of a nested object); what it leaves out on purpose (a mapped
     * key, a nested object all of whose fields are mapped) must be owned, or
     * it comes back whole as a stale copy of the mapped value.
     */
    owns: [...new Set(paths.flatMap(prefixesOf))],
    check: (row) => checkRow(row),
    toSample: (row) => {
      const sample = core(row);
      return withRest(sample, row);
    },
    toRow: (sample, original) => {
      const written = writeBack(sample, original);
      // The top-level keys the mapping writes, as mergeInOrder expects. Built
      // from entries: assigning `patch["__proto__"]` would set the prototype
      // and the field would never be written.
      return Object.fromEntries(
        paths.map((path) => {
          const key = topKeyOf(original, path);
          return [key, written[key]];
        }),
      );
    },
  };

  function checkRow(row: Row): Problem {
    switch (mapping.task_type) {
      case 'text':
        return textField(row, oneOf(fields.text) as string, 'text');
      case 'question_answer':
        return (
          textField(row, oneOf(fields.question) as string, 'question') ??
          textField(row, oneOf(fields.answer) as string, 'answer')
        );
      case 'multiple_choice': {
        const choicePaths = listOf(fields.choices);
        const problem =
          textField(row, oneOf(fields.context) as string, 'context') ??
          choicesProblem(row, choicePaths);
        if (problem) return problem;
        const answerPath = oneOf(fields.answer) as string;
        if (!hasPath(row, answerPath)) return `"${answerPath}" (answer) is missing`;
        const answer = getPath(row, answerPath);
        const choices = choicesOf(row, choicePaths) ?? [];
        if (readAnswer(answer, form, choices) === undefined) {
          return `"${answerPath}" (answer) must be ${describeForm(form)}, not ${
            typeof answer === 'string' || typeof answer === 'number'
              ? JSON.stringify(answer)
              : describe(answer)
          }`;
        }
        const styleSource = oneOf(fields.style);
        if (!isFixedStyle(styleSource) && styleOf(row, styleSource) === undefined) {
          return `"${styleSource}" (style) must be "qa" or "continuation"`;
        }
        return undefined;
      }
      case 'conversation':
        return fields.messages !== undefined ? messagesProblem(row) : promptProblem(row);
    }
  }

  function messagesProblem(row: Row): Problem {
    const path = oneOf(fields.messages) as string;
    if (!hasPath(row, path)) return `"${path}" (messages) is missing`;
    const turns = getPath(row, path);
    if (!Array.isArray(turns)) return `"${path}" (messages) must be an array, ${instead(turns)}`;
    if (turns.length === 0) return `"${path}" (messages) is empty`;
    for (const [i, turn] of turns.entries()) {
      if (!isRecord(turn)) return `"${path}[${i}]" must be an object, ${instead(turn)}`;
      if (typeof turn[roleKey] !== 'string') {
        return `"${path}[${i}].${roleKey}" (the role) must be a string, ${instead(turn[roleKey])}`;
      }
      const content = turn[contentKey];
      if (content !== null && textOf(content) === undefined) {
        return `"${path}[${i}].${contentKey}" (the content) must be text, ${instead(content)}`;
      }
    }
    return undefined;
  }

  function promptProblem(row: Row): Problem {
    const prompt = listOf(fields.prompt);
    if (!prompt.some((path) => hasPath(row, path))) {
      return `the prompt field${prompt.length > 1 ? 's' : ''} ${prompt.map((p) => `"${p}"`).join(', ')} ${prompt.length > 1 ? 'are' : 'is'} missing`;
    }
    for (const path of prompt) {
      const value = getPath(row, path);
      if (!empty(value) && textOf(value) === undefined) {
        return `"${path}" (prompt) must be text, ${instead(value)}`;
      }
    }
    const system = oneOf(fields.system);
    if (system !== undefined) {
      const value = getPath(row, system);
      if (!empty(value) && textOf(value) === undefined)
        return `"${system}" (system) must be text, ${instead(value)}`;
    }
    return textField(row, oneOf(fields.response) as string, 'response');
  }

  function partsOf(row: Row): string[] {
    return listOf(fields.prompt).map((path) => textOf(getPath(row, path)) ?? '');
  }

  function core(row: Row): Sample {
    const text = (path: string | readonly string[] | undefined): string =>
      textOf(getPath(row, oneOf(path) as string)) ?? '';
    switch (mapping.task_type) {
      case 'text':
        return { task_type: 'text', text: text(fields.text) };
      case 'question_answer':
        return {
          task_type: 'question_answer',
          question: text(fields.question),
          answer: text(fields.answer),
        };
      case 'multiple_choice': {
        const choices = choicesOf(row, listOf(fields.choices)) ?? [];
        return {
          task_type: 'multiple_choice',
          context: text(fields.context),
          choices,
          answer_index:
            readAnswer(getPath(row, oneOf(fields.answer) as string), form, choices) ?? 0,
          style: styleOf(row, oneOf(fields.style)) ?? 'qa',
        };
      }
      case 'conversation': {
        if (fields.messages !== undefined) {
          const turns = getPath(row, oneOf(fields.messages) as string) as Row[];
          return {
            task_type: 'conversation',
            messages: turns.map((turn): ChatMessage => ({
              role: vocabulary.toRole(turn[roleKey] as string),
              content: textOf(turn[contentKey]) ?? '',
            })),
            turns: 'all',
          };
        }
        const messages: ChatMessage[] = [];
        const system = fields.system === undefined ? '' : text(fields.system);
        if (system !== '') messages.push({ role: 'system', content: system });
        messages.push({ role: 'user', content: joinParts(partsOf(row)) });
        messages.push({ role: 'assistant', content: text(fields.response) });
        return { task_type: 'conversation', messages, turns: 'all' };
      }
    }
  }

  /**
   * The sample followed by the row's other fields as passthrough metadata: a
   * top-level field the mapping does not read is kept whole; a nested object
   * the mapping reads part of is kept without the parts it reads.
   */
  function withRest(sample: Sample, row: Row): Sample {
    let rest: Row = row;
    for (const path of paths) rest = setPath(rest, path, undefined);
    // Entries, not assignments, so a `__proto__` key stays an own property.
    const entries: [string, unknown][] = Object.entries(sample);
    const taken = new Set(Object.keys(sample));
    for (const [key, value] of Object.entries(rest)) {
      if (
        taken.has(key) ||
        key === 'task_type' ||
        key === 'audit' ||
        key === 'fix' ||
        key === 'reaudit'
      )
        continue;
      if (
        isRecord(value) &&
        Object.keys(value).length === 0 &&
        isRecord(row[key]) &&
        Object.keys(row[key]).length > 0
      )
        continue;
      entries.push([key, value]);
    }
    return Object.fromEntries(entries) as Sample;
  }

  function writeBack(sample: Sample, original: Row): Row {
    const put = (row: Row, path: string | undefined, text: string): Row =>
      path === undefined ? row : setPath(row, path, backLike(getPath(row, path), text));
    switch (mapping.task_type) {
      case 'text': {
        const s = sampleOf(sample, 'text', info);
        return put(original, oneOf(fields.text), s.text);
      }
      case 'question_answer': {
        const s = sampleOf(sample, 'question_answer', info);
        return put(
          put(original, oneOf(fields.question), s.question),
          oneOf(fields.answer),
          s.answer,
        );
      }
      case 'multiple_choice':
        return writeChoices(sampleOf(sample, 'multiple_choice', info), original);
      case 'conversation': {
        const s = sampleOf(sample, 'conversation', info);
        return fields.messages !== undefined
          ? writeMessages(s.messages, original)
          : writePrompt(s.messages, original);
      }
    }
  }

  function writeChoices(s: Extract<Sample, { task_type: 'multiple_choice' }>, original: Row): Row {
    let row = setPath(
      original,
      oneOf(fields.context) as string,
      backLike(getPath(original, oneOf(fields.context) as string), s.context),
    );
    const choicePaths = listOf(fields.choices);
    if (choicePaths.length === 1) {
      const path = choicePaths[0] as string;
      const old = getPath(original, path);
      const oldItems = Array.isArray(old) ? old : [];
      const next = s.choices.map((choice, i) => backLike(oldItems[i], choice));
      const same =
        next.length === oldItems.length && next.every((value, i) => value === oldItems[i]);
      if (!same) row = setPath(row, path, next);
      row = relabel(row, path, oldItems.length, next.length);
    } else {
      if (s.choices.length > choicePaths.length) {
        throw conflict(
          `${s.choices.length} choices do not fit the ${choicePaths.length} choice fields`,
        );
      }
      for (const [i, path] of choicePaths.entries()) {
        const old = getPath(original, path);
        const choice = s.choices[i];
        if (choice !== undefined) row = setPath(row, path, backLike(old, choice));
        else if (!empty(old)) row = setPath(row, path, old === null ? null : '');
      }
    }
    const answerPath = oneOf(fields.answer) as string;
    const oldAnswer = getPath(original, answerPath);
    const oldChoices = choicesOf(original, choicePaths) ?? [];
    const unchanged =
      readAnswer(oldAnswer, form, oldChoices) === s.answer_index &&
      (form !== 'text' || oldChoices[s.answer_index] === s.choices[s.answer_index]);
    if (!unchanged) {
      const answer = writeAnswer(s.answer_index, form, s.choices, oldAnswer);
      if (answer === undefined)
        throw conflict(`answer_index ${s.answer_index} cannot be written as ${describeForm(form)}`);
      row = setPath(row, answerPath, answer);
    }
    const styleSource = oneOf(fields.style);
    if (
      !isFixedStyle(styleSource) &&
      s.style !== undefined &&
      styleOf(original, styleSource) !== s.style
    ) {
      row = setPath(row, styleSource as string, s.style);
    }
    return row;
  }

  /**
   * ARC and CommonsenseQA keep a label per choice beside the texts
   * (`choices.label` beside `choices.text`). When the number of choices
   * changes, a label list that matched the old choices is cut or continued in
   * its own style (as the ARC shape does); left alone, the row would hold 4
   * texts and 5 labels and no longer read. A label list the mapping reads
   * itself, or one that did not match, is left alone.
   */
  function relabel(row: Row, choicesPath: string, before: number, after: number): Row {
    const dot = choicesPath.lastIndexOf('.');
    if (before === after || dot < 0 || choicesPath.slice(dot + 1) !== 'text') return row;
    const labelsPath = `${choicesPath.slice(0, dot)}.label`;
    const labels = getPath(row, labelsPath);
    if (paths.includes(labelsPath) || !isStringArray(labels) || labels.length !== before) {
      return row;
    }
    return setPath(row, labelsPath, labelsFor(labels, after));
  }

  function writeMessages(messages: readonly ChatMessage[], original: Row): Row {
    const path = oneOf(fields.messages) as string;
    const old = getPath(original, path);
    const turns = Array.isArray(old) ? old : [];
    const next = messages.map((message, i) => {
      const turn = isRecord(turns[i]) ? turns[i] : {};
      const role = vocabulary.toName(message.role, turn[roleKey]);
      return {
        ...turn,
        [roleKey]: role,
        [contentKey]: backLike(turn[contentKey], message.content),
      };
    });
    const same =
      next.length === turns.length &&
      next.every((turn, i) => {
        const was = turns[i] as Row;
        return turn[roleKey] === was[roleKey] && turn[contentKey] === was[contentKey];
      });
    return same ? original : setPath(original, path, next);
  }

  function writePrompt(messages: readonly ChatMessage[], original: Row): Row {
    const systemPath = oneOf(fields.system);
    const hadSystem = systemPath !== undefined && !empty(getPath(original, systemPath));
    const expected = hadSystem ? ['system', 'user', 'assistant'] : ['user', 'assistant'];
    const roles = messages.map((m) => m.role);
    if (roles.length !== expected.length || roles.some((role, i) => role !== expected[i])) {
      throw conflict(
        `a prompt/response row holds ${expected.join(', ')} turns, not ${roles.join(', ')}`,
      );
    }
    let row = original;
    let at = 0;
    if (hadSystem)
      row = setPath(
        row,
        systemPath,
        backLike(getPath(row, systemPath), messages[at++]?.content ?? ''),
      );
    const promptPaths = listOf(fields.prompt);
    const split = splitJoined(partsOf(original), messages[at++]?.content ?? '', promptPaths);
    if ('conflict' in split) throw conflict(split.conflict);
    for (const [i, path] of promptPaths.entries()) {
      const old = getPath(original, path);
      const part = split.parts[i] ?? '';
      if ((textOf(old) ?? '') !== part) row = setPath(row, path, backLike(old, part));
    }
    const response = oneOf(fields.response) as string;
    return setPath(row, response, backLike(getPath(row, response), messages[at]?.content ?? ''));
  }

  return shape;
}
