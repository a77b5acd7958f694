import { randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'svc_session';

const token = (): string => randomBytes(32).toString('base64url');

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The owner's door in a browser (as Jupyter does it): `svc serve` prints a
 * link with a one-time token; opening it trades the token for a session
 * cookie. Sessions live as long as the server process.
 */
export class OwnerSessions {
  #pendingTokens: string[] = [];
  readonly #sessions = new Set<string>();

  /** A new one-time token, valid until redeemed. */
  issueToken(): string {
    const value = token();
    this.#pendingTokens.push(value);
    return value;
  }

  /** Redeems a token once; returns the new session id, or null when the token is not valid. */
  redeem(candidate: string): string | null {
    const match = this.#pendingTokens.find((t) => sameSecret(t, candidate));
    if (!match) return null;
    this.#pendingTokens = this.#pendingTokens.filter((t) => t !== match);
    const session = token();
    this.#sessions.add(session);
    return session;
  }

  isSession(candidate: string | undefined): boolean {
    if (!candidate) return false;
    for (const session of this.#sessions) if (sameSecret(session, candidate)) return true;
    return false;
  }
}
