import { AppError } from '../../../src-shared/errors.ts';
import type { EngineBackend } from '../backend.ts';
import { builtinBackend } from '../builtin/backend.ts';
import type { upstreamAudit } from './audit.ts';
import type { UpstreamClient } from './client.ts';
import { describeServer, type UpstreamConfig } from './config.ts';
import type { upstreamProposeFix, RejectedProposals } from './fix.ts';

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

/** An upstream role's client and what asks it. */
interface UpstreamRole {
  client: UpstreamClient;
  audit: typeof upstreamAudit;
  proposeFix: typeof upstreamProposeFix;
}

/**
 * A role's client, made at its first request, with the code that asks it:
 * the client module loads the openai SDK (~0.1 s of CPU), and the upstream
 * audit and fix load the builtin checks they build on (~0.2 s), which every
 * command and the server's start paid though most runs never ask an
 * upstream server.
 */
function lazyUpstream(config: UpstreamConfig): () => Promise<UpstreamRole> {
  let role: Promise<UpstreamRole> | undefined;
  return () =>
    (role ??= Promise.all([import('./client.ts'), import('./audit.ts'), import('./fix.ts')]).then(
      ([{ UpstreamClient }, audit, fix]) => ({
        client: new UpstreamClient(config),
        audit: audit.upstreamAudit,
        proposeFix: fix.upstreamProposeFix,
      }),
    ));
}

/**
 * The backend for a pair of roles: each runs on the builtin engine or on its
 * upstream server. Both builtin gives the builtin backend itself. The engine
 * may run up to the larger upstream concurrency of samples at once; each
 * server's own limit still caps the requests it gets.
 */
export function createRolesBackend(roles: EngineRoles): EngineBackend {
  if (roles.audit.kind === 'builtin' && roles.fix.kind === 'builtin') return builtinBackend;
  const clientFor = (role: RoleEngine, scope: string): (() => Promise<UpstreamRole>) | null =>
    role.kind === 'upstream' ? lazyUpstream({ ...role.config, scope }) : null;
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
      if (auditClient) return auditClient().then((up) => up.audit(up.client, sample, ctx));
      if (roles.audit.kind === 'builtin') return builtinBackend.audit(sample, ctx);
      return Promise.reject(unavailable(roles.audit, 'svc-audit-1'));
    },
    proposeFix: (sample, audit, attempt, maxAttempts, ctx) => {
      if (fixClient) {
        return fixClient().then((up) =>
          up.proposeFix(up.client, sample, audit, attempt, maxAttempts, ctx, rejected),
        );
      }
      if (roles.fix.kind === 'builtin') {
        return builtinBackend.proposeFix(sample, audit, attempt, maxAttempts, ctx);
      }
      return Promise.reject(unavailable(roles.fix, 'svc-fix-1'));
    },
  };
}
