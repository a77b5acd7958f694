import { AppError } from '../../../src-shared/errors.ts';
import type { ChatMessage, Sample } from '../../../src-shared/schemas/sample.ts';
import { isRecord, recordField, sampleOf } from './fields.ts';
import { rowToSample } from './index.ts';
import { nodeProblem, OASST_ROLES, oasstShape, repliesOf, replyOrder, writePath } from './oasst.ts';
import type { Row, ShapeMapper } from './types.ts';

/**
 * OpenAssistant trees read along every path: each root-to-leaf path of a
 * message tree is a conversation of its own (the "every path" import), and
 * the repairs of all of a tree's paths go back into the one tree they came
 * from. A message shared by several paths (the prompt is in all of them) is
 * written once; two paths that repair it differently cannot both be right,
 * so neither repair is written and both paths say why.
 */

/** The reply index taken at each step below the prompt. */
export type Route = readonly number[];

interface Frame {
  node: Row;
  /** This node's index among its parent's replies (-1 for the prompt). */
  index: number;
  order: number[];
  tried: number;
}

/**
 * Every root-to-leaf path of the tree under `prompt`, best-ranked replies
 * first (the order `replyOrder` gives), or the first problem with any of its
 * nodes: every node is read, so each must be a message. Depth first and
 * iterative, so a deep tree does not exhaust the stack; a route is built only
 * at its leaf, so memory stays linear in what is returned.
 */
export function everyRoute(prompt: unknown): Route[] | string {
  const rootProblem = nodeProblem(prompt, 'prompt');
  if (rootProblem) return rootProblem;
  const frame = (node: Row, index: number): Frame => ({
    node,
    index,
    order: replyOrder(repliesOf(node)),
    tried: 0,
  });
  const routes: Route[] = [];
  const stack: Frame[] = [frame(prompt as Row, -1)];
  const routeHere = (): number[] => stack.slice(1).map((f) => f.index);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Frame;
    if (top.order.length === 0) routes.push(routeHere());
    const next = top.order[top.tried++];
    if (next === undefined) {
      stack.pop();
      continue;
    }
    const child = repliesOf(top.node)[next];
    // Where the node is is spelled out only for a problem: building it for every node is quadratic.
    if (nodeProblem(child, '') !== undefined) {
      return nodeProblem(child, whereOf([...routeHere(), next])) as string;
    }
    stack.push(frame(child as Row, next));
  }
  return routes;
}

/** `prompt.replies[1].replies[0]` for the route [1, 0]. */
export function whereOf(route: Route): string {
  return route.reduce<string>((where, index) => `${where}.replies[${index}]`, 'prompt');
}

/** The nodes along a route, the prompt first; shorter when the route leaves the tree. */
function nodesAlong(prompt: Row, route: Route): Row[] {
  const nodes = [prompt];
  let node = prompt;
  for (const index of route) {
    const child = repliesOf(node)[index];
    if (!isRecord(child)) break;
    nodes.push(child);
    node = child;
  }
  return nodes;
}

function routeShape(route: Route): ShapeMapper {
  return {
    ...oasstShape,
    check: (row) => recordField(row, 'prompt'),
    toSample(row) {
      return {
        task_type: 'conversation',
        messages: nodesAlong(row.prompt as Row, route).map((node): ChatMessage => ({
          role: OASST_ROLES.toRole(node.role as string),
          content: node.text as string,
        })),
        turns: 'all',
      };
    },
  };
}

export interface TreePath {
  route: Route;
  sample: Sample;
}

/**
 * A tree row as one conversation per root-to-leaf path, each with the row's
 * passthrough metadata. Throws an AppError naming the first bad node.
 */
export function oasstPaths(row: Row): TreePath[] {
  const problem = recordField(row, 'prompt');
  const routes = problem ?? everyRoute(row.prompt);
  if (typeof routes === 'string') {
    throw new AppError(
      'invalid_request',
      `row does not fit ${oasstShape.info.label}: ${problem ?? routes}`,
    );
  }
  return routes.map((route) => ({ route, sample: rowToSample(row, routeShape(route)) }));
}

/** One path's part in a write-back: its route and its repaired sample (null: nothing to write). */
export interface PathRepair {
  route: Route;
  sample: Sample | null;
  /** How messages name the path: `row 12`. */
  label: string;
}

interface Edit {
  text: string;
  role: string;
  node: Row;
  where: string;
  parts: number[];
  /** Parts that repaired the same message to something else. */
  rivals: number[];
}

/**
 * The tree row with every path's repair written in: each changed message
 * once, under the tree's own role names. `problems[i]` says why part i's
 * repair was not written (its row stays as it was): two paths repairing a
 * shared message differently, or turns merged, dropped or added where other
 * paths share the tree (a tree of one path takes those as the best-path
 * import does). Parts without a sample contribute nothing.
 */
export function writeOasstPaths(
  original: Row,
  parts: readonly PathRepair[],
): { row: Row; problems: (string | undefined)[] } {
  const problems: (string | undefined)[] = parts.map(() => undefined);
  const prompt = isRecord(original.prompt) ? original.prompt : undefined;
  if (prompt === undefined) return { row: original, problems };
  const changed = parts.filter((part) => part.sample !== null);
  if (changed.length === 0) return { row: original, problems };
  if (parts.length === 1 && parts[0]?.sample) {
    // A tree of one path: merged or dropped turns can be written as the best path writes them.
    const { messages } = sampleOf(parts[0].sample, 'conversation', oasstShape.info);
    return { row: { ...original, prompt: writePath(prompt, messages, parts[0].route) }, problems };
  }

  const root = structuredClone(prompt);
  const edits = new Map<string, Edit>();
  parts.forEach((part, i) => {
    if (part.sample === null) return;
    const { messages } = sampleOf(part.sample, 'conversation', oasstShape.info);
    const nodes = nodesAlong(root, part.route);
    if (nodes.length !== part.route.length + 1) {
      problems[i] = `the tree has no path ${whereOf(part.route)}`;
      return;
    }
    if (messages.length !== nodes.length) {
      problems[i] =
        `the repair turns the path's ${nodes.length} messages into ${messages.length}; the ` +
        'tree shares them with other paths, so turns cannot be merged, dropped or added there';
      return;
    }
    messages.forEach((message, depth) => {
      const node = nodes[depth] as Row;
      const role = OASST_ROLES.toName(message.role, node.role);
      if (node.text === message.content && node.role === role) return;
      const key = part.route.slice(0, depth).join('/');
      const edit = edits.get(key);
      if (edit === undefined) {
        const where = whereOf(part.route.slice(0, depth));
        edits.set(key, { text: message.content, role, node, where, parts: [i], rivals: [] });
      } else if (edit.text === message.content && edit.role === role) edit.parts.push(i);
      else edit.rivals.push(i);
    });
  });
  for (const edit of edits.values()) {
    if (edit.rivals.length === 0) continue;
    const involved = [...edit.parts, ...edit.rivals];
    for (const i of involved) {
      const others = involved.filter((j) => j !== i).map((j) => parts[j]?.label);
      problems[i] ??=
        `the message at ${edit.where} is shared with ${others.join(', ')}, ` +
        'which repaired it differently';
    }
  }
  for (const edit of edits.values()) {
    if (!edit.parts.some((i) => problems[i] === undefined)) continue;
    edit.node.text = edit.text;
    edit.node.role = edit.role;
  }
  return { row: { ...original, prompt: root }, problems };
}
