/**
 * The names a sample's schema (sample.ts) is built from, in a module of
 * their own without zod: the engine's workers read these at run time (a
 * check's roles, the keys a result adds, the task types a scan keys on) and
 * would otherwise load zod, ~95 modules, for three lists. sample.ts builds
 * its schemas from these and exports them again.
 */

export const TASK_TYPES = ['text', 'multiple_choice', 'question_answer', 'conversation'] as const;

export const CHAT_ROLES = ['system', 'user', 'assistant'] as const;

/** Keys the service adds to a sample; they are never part of the sample itself. */
export const RESULT_KEYS = ['audit', 'fix', 'reaudit'] as const;
