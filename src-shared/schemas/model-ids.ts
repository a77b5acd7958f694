/**
 * The engine models' ids, in a module without zod (as sample-kinds.ts): the
 * engine's workers name them in every result, and blocks.ts, whose schemas
 * carry them, would load zod's ~95 modules into each worker for two strings.
 */
export const AUDIT_MODEL_ID = 'svc-audit-1';
export const FIX_MODEL_ID = 'svc-fix-1';
