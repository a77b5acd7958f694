import { useRunTempDir } from './run-temp.ts';

/** Playwright's global set-up: the run's temporary folder (run-temp.ts), removed as the run ends. */
export default function setup(): () => void {
  return useRunTempDir('svc-e2e-run-');
}
