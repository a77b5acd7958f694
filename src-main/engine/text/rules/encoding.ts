import { fixC1Controls, fixEncoding, mayHoldMojibake } from '../mojibake.ts';
import { leftoverMojibake } from '../mojibake-leftovers.ts';
import { excerpt, plural, type TextRule } from '../rule.ts';

/** Encoding damage: mojibake, control characters, U+FFFD, lone surrogates. */

const C0_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const C1_CONTROLS = /[\u0080-\u009f]/g;
const ANY_SURROGATE = /[\ud800-\udfff]/;
/** Either kind, in one scan of the text: most texts have none. */
const ANY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const mojibakeRule: TextRule = {
  code: 'mojibake',
  dimension: 'fluency',
  severity: 'error',
  describe: (f) => `mis-decoded UTF-8 (mojibake)${f.example ? `, e.g. "${f.example}"` : ''}`,
  detect: (text) => {
    if (!mayHoldMojibake(text)) return null;
    const repaired = fixEncoding(text);
    // What the repair cannot decode is still reported, so the sample is flagged.
    const leftovers = leftoverMojibake(repaired.text);
    if (repaired.layers === 0 && leftovers.length === 0) return null;
    let at = 0;
    while (at < text.length && text[at] === repaired.text[at]) at++;
    if (repaired.layers === 0) at = leftovers[0] ?? 0;
    // The span starts where the repair first differs and runs to the next space or line end.
    const rest = text.slice(at).search(/[\s]/);
    const end = rest < 0 ? text.length : at + Math.max(1, rest);
    return {
      count: repaired.layers + leftovers.length,
      example: excerpt(text, at, 8),
      span: [at, end],
    };
  },
  fix: (text) => fixEncoding(text).text,
};

export const controlCharsRule: TextRule = {
  code: 'control_chars',
  dimension: 'fluency',
  severity: 'error',
  describe: (f) => plural(f.count, 'control character'),
  detect: (text) => {
    if (!ANY_CONTROL.test(text)) return null;
    const count = (text.match(C0_CONTROLS)?.length ?? 0) + (text.match(C1_CONTROLS)?.length ?? 0);
    return count > 0 ? { count } : null;
  },
  // C1 controls that stand for Windows-1252 punctuation become it; other controls go.
  fix: (text) => fixC1Controls(text).replace(C0_CONTROLS, '').replace(C1_CONTROLS, ''),
};

export const replacementCharRule: TextRule = {
  code: 'replacement_char',
  dimension: 'fluency',
  severity: 'error',
  describe: (f) =>
    `${plural(f.count, 'replacement character')} (U+FFFD): the original characters are lost`,
  detect: (text) => {
    const at = text.indexOf('\ufffd');
    if (at < 0) return null;
    const count = text.split('\ufffd').length - 1;
    return { count, example: excerpt(text, at), span: [at, at + 1] };
  },
};

export const brokenUnicodeRule: TextRule = {
  code: 'broken_unicode',
  dimension: 'fluency',
  severity: 'error',
  describe: (f) => plural(f.count, 'unpaired UTF-16 surrogate'),
  detect: (text) => {
    if (!ANY_SURROGATE.test(text)) return null;
    const count = text.match(LONE_SURROGATE)?.length ?? 0;
    return count > 0 ? { count } : null;
  },
  fix: (text) => text.replace(LONE_SURROGATE, ''),
};
