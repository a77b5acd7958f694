import { parentPort, workerData } from 'node:worker_threads';
import { buildFingerprints, type EvalItem } from '../build.ts';
import { ContaminationMatcher, type MergedIndex, type TextField } from '../match.ts';

/**
 * A worker for match.test.ts: matches the rows it is given with a matcher
 * made from the index the test's thread merged in shared memory, and says
 * whether that index came as shared memory (not a copy).
 */
const { items, index, rows } = workerData as {
  items: EvalItem[];
  index: MergedIndex;
  rows: TextField[][];
};
const matcher = new ContaminationMatcher(buildFingerprints([{ name: 'demo/test', items }]), index);
parentPort?.postMessage({
  matches: rows.map((row) => matcher.match(row)),
  shared: [index.keys, index.refs, index.starts, index.filter].every(
    (part) => part.buffer instanceof SharedArrayBuffer,
  ),
});
