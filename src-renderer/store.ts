import { create } from 'zustand';
import type { AppError } from '../src-shared/errors.ts';
import type { ServerStatus } from '../src-shared/owner-api.ts';
import { api } from './api/client.ts';

export const SCREENS = ['datasets', 'keys', 'server', 'settings'] as const;
export type Screen = (typeof SCREENS)[number];

export function screenFromHash(hash: string): Screen {
  const name = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return (SCREENS as readonly string[]).includes(name ?? '') ? (name as Screen) : 'datasets';
}

interface AppState {
  screen: Screen;
  server: { status: ServerStatus | null; error: AppError | null; loading: boolean };
  setScreen: (screen: Screen) => void;
  refreshServer: () => Promise<void>;
}

export const useApp = create<AppState>()((set) => ({
  screen: screenFromHash(window.location.hash),
  server: { status: null, error: null, loading: false },
  setScreen: (screen) => {
    if (window.location.hash !== `#/${screen}`) window.location.hash = `#/${screen}`;
    set({ screen });
  },
  refreshServer: async () => {
    set((s) => ({ server: { ...s.server, loading: true } }));
    try {
      const status = await api.serverStatus({});
      set({ server: { status, error: null, loading: false } });
    } catch (error) {
      set((s) => ({
        server: { status: s.server.status, error: error as AppError, loading: false },
      }));
    }
  },
}));

window.addEventListener('hashchange', () => {
  useApp.setState({ screen: screenFromHash(window.location.hash) });
});
