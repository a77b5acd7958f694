/**
 * Reading a sample's texts for the contamination evidence: the string a
 * JSON pointer names (an issue's `path`), and every text of a sample with
 * its pointer (the matched row of an evaluation set), its metadata aside as
 * the check reads none of it.
 */

const escape = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');
const unescape = (part: string): string => part.replaceAll('~1', '/').replaceAll('~0', '~');

/** The string at a JSON pointer (`/messages/1/content`), or null when there is none. */
export function textAt(value: unknown, pointer: string): string | null {
  let at: unknown = value;
  for (const part of pointer.split('/').slice(1).map(unescape)) {
    if (Array.isArray(at)) at = at[Number(part)];
    else if (at !== null && typeof at === 'object') at = (at as Record<string, unknown>)[part];
    else return null;
  }
  return typeof at === 'string' ? at : null;
}

/** Every non-empty text of a sample with its pointer, in order; `metadata` is left out. */
export function textsOf(sample: Record<string, unknown>): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      if (value.trim() !== '') out.push({ path, text: value });
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${path}/${i}`));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        walk(item, `${path}/${escape(key)}`);
      }
    }
  };
  for (const [key, value] of Object.entries(sample)) {
    if (key !== 'metadata' && key !== 'task_type') walk(value, `/${escape(key)}`);
  }
  return out;
}
