import { AppError } from '../../../src-shared/errors.ts';
import type { StoredSecret } from '../../../src-shared/schemas/settings.ts';

/**
 * How secrets (an upstream model server's API key) are kept in the settings.
 *
 * `svc serve` and the CLI use the plain box: the key is stored as it is, in
 * the data directory's SQLite database, which is made readable by its owner
 * only (0600) when the key is written. The desktop app plugs in Electron's
 * safeStorage (the OS keychain) before anything reads the settings:
 *
 *   import { safeStorage } from 'electron';
 *   if (safeStorage.isEncryptionAvailable()) {
 *     setSecretBox({
 *       id: 'electron-safe-storage',
 *       encrypt: (plain) => safeStorage.encryptString(plain).toString('base64'),
 *       decrypt: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
 *     });
 *   }
 *
 * Each stored secret names the box that sealed it, so a key sealed by the app
 * and read by `svc serve` fails with a clear message instead of garbage.
 */
export interface SecretBox {
  /** Stored beside each secret it seals. */
  readonly id: string;
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export const plainSecretBox: SecretBox = {
  id: 'plain',
  encrypt: (plain) => plain,
  decrypt: (sealed) => sealed,
};

let current: SecretBox = plainSecretBox;

/** The seam for the Electron main process: call once at start-up, before serving. */
export function setSecretBox(box: SecretBox): void {
  current = box;
}

export function getSecretBox(): SecretBox {
  return current;
}

export function sealSecret(plain: string, box: SecretBox = current): StoredSecret {
  return { box: box.id, data: box.encrypt(plain) };
}

export function openSecret(stored: StoredSecret, box: SecretBox = current): string {
  if (stored.box !== box.id) {
    throw new AppError(
      'service_error',
      `the stored upstream API key was sealed by "${stored.box}" and cannot be read here ` +
        `("${box.id}"): set it again (svc settings set upstream.ROLE.api_key -) or use SVC_UPSTREAM_KEY`,
    );
  }
  try {
    return box.decrypt(stored.data);
  } catch (error) {
    throw new AppError('service_error', 'the stored upstream API key could not be decrypted', {
      cause: error,
    });
  }
}

/** What may be shown of a key: `sk-…abcd` (a short key shows nothing but that it is set). */
export function maskSecret(plain: string): string {
  if (plain.length < 16) return '…';
  return `${plain.slice(0, 3)}…${plain.slice(-4)}`;
}

/** A stored key as it may be shown: its mask, or where it is sealed when this process cannot open it. */
export function shownSecret(stored: StoredSecret | null, box: SecretBox = current): string | null {
  if (stored === null) return null;
  try {
    return maskSecret(openSecret(stored, box));
  } catch {
    return `(sealed by ${stored.box}: set it again)`;
  }
}
