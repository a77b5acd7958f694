/* eslint-disable @typescript-eslint/no-deprecated --
   Electron 45 deprecates safeStorage's synchronous calls in favour of async ones. The secret box
   is synchronous because a key is opened while the engine for a request is chosen; the sync calls
   still work in Electron 45 and read the same data as the async ones, so moving to
   encryptStringAsync/decryptStringAsync (an async box with keys opened at start-up) is a contained
   later change. */
import { safeStorage } from 'electron';
import { setSecretBox } from '../service/owner/secret-box.ts';

/**
 * Upstream API keys in the desktop app are sealed with Electron's safeStorage
 * (Keychain on macOS, DPAPI on Windows, the Secret Service / kwallet on
 * Linux). Where the OS offers no encryption (Linux without a keyring, where
 * safeStorage would fall back to a hard-coded password), the plain box stays
 * in force and the database file is kept readable by its owner only, as in
 * `svc serve`; the Settings screen shows which one is in use.
 */
export function useSafeStorageForSecrets(): void {
  if (!safeStorage.isEncryptionAvailable()) return;
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
    return;
  }
  setSecretBox({
    id: 'electron-safe-storage',
    encrypt: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decrypt: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
  });
}
