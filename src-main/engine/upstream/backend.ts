import { AppError } from '../../../src-shared/errors.ts';
import type { EngineBackend } from '../backend.ts';
import { builtinBackend } from '../builtin/backend.ts';
import { upstreamAudit } from './audit.ts';
import type { UpstreamClient } from './client.ts';
import { describeServer, type UpstreamConfig } from './config.ts';
import { upstreamProposeFix, type RejectedProposals } from './fix.ts';

/** What runs one model role: the builtin engine, an upstream server, or nothing (misconfigured). */
export type RoleEngine =
  | { kind: 'builtin' }
  | { kind: 'upstream'; config: UpstreamConfig }
  | { kind: 'unavailable'; message: string };

export interface EngineRoles {
  /** svc-audit-1: every audit pass, the fix's re-audits included. */
  audit: RoleEngine;
  /** svc-fix-1: the fix candidates. */
  fix: RoleEngine;
}

export const BUILTIN_ROLES: EngineRoles = { audit: { kind: 'builtin' }, fix: { kind: 'builtin' } };

export function describeRole(role: RoleEngine): string {
  switch (role.kind) {
    case 'builtin':
      return 'builtin';
    case 'upstream':
      return `upstream ${describeServer(role.config.baseURL, role.config.model)}`;
    case 'unavailable':
      return `unavailable (${role.message})`;
  }
}

/**
 * A role's client, made at its first request: the client module loads the
 * openai SDK, ~0.1 s of CPU that every command and the server's start paid
 * though most runs never ask an upstream server.
 */
function lazyClient(config: UpstreamConfig): () => Promise<UpstreamClient> {
  let client: Promise<UpstreamClient> | undefined;
  return () =>
    (client ??= import('./client.ts').then(({ UpstreamClient }) => new UpstreamClient(config)));
}

/**
 * The backend for a pair of roles: each runs on the builtin engine or on its
 * upstream server. Both builtin gives the builtin backend itself. The engine
 * may run up to the larger upstream concurrency of samples at once; each
 * server's own limit still caps the requests it gets.
 */
export function createRolesBackend(roles: EngineRoles): EngineBackend {
  if (roles.audit.kind === 'builtin' && roles.fix.kind === 'builtin') return builtinBackend;
  const clientFor = (role: RoleEngine, scope: string): (() => Promise<UpstreamClient>) | null =>
    role.kind === 'upstream' ? lazyClient({ ...role.config, scope }) : null;
  const unavailable = (role: RoleEngine, model: string): AppError =>
    new AppError(
      'service_error',
      `${model} cannot run: ${role.kind === 'unavailable' ? role.message : 'no engine'}`,
    );
  const auditClient = clientFor(roles.audit, 'audit');
  const fixClient = clientFor(roles.fix, 'fix');
  const rejected: RejectedProposals = new WeakMap();
  const widths = [roles.audit, roles.fix].map((r) =>
    r.kind === 'upstream' ? r.config.concurrency : 1,
  );
  return {
    id: `audit: ${describeRole(roles.audit)}; fix: ${describeRole(roles.fix)}`,
    concurrency: Math.max(...widths),
    audit: (sample, ctx) => {
      if (auditClient) return auditClient().then((client) => upstreamAudit(client, sample, ctx));
      if (roles.audit.kind === 'builtin') return builtinBackend.audit(sample, ctx);
      return Promise.reject(unavailable(roles.audit, 'svc-audit-1'));
    },
    proposeFix: (sample, audit, attempt, maxAttempts, ctx) => {
      if (fixClient) {
        return fixClient().then((client) =>
          upstreamProposeFix(client, sample, audit, attempt, maxAttempts, ctx, rejected),
        );
      }
      if (roles.fix.kind === 'builtin') {
        return builtinBackend.proposeFix(sample, audit, attempt, maxAttempts, ctx);
      }
      return Promise.reject(unavailable(roles.fix, 'svc-fix-1'));
    },
  };
}
