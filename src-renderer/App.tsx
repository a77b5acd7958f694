import { useEffect } from 'react';
import { DropZone } from './components/DropZone.tsx';
import { DatasetsScreen } from './screens/DatasetsScreen.tsx';
import { KeysScreen } from './screens/KeysScreen.tsx';
import { ServerScreen } from './screens/ServerScreen.tsx';
import { SettingsScreen } from './screens/SettingsScreen.tsx';
import { listenToEvents } from './state/events.ts';
import { type Screen, useApp } from './store.ts';

const NAV: { screen: Screen; label: string }[] = [
  { screen: 'datasets', label: 'Datasets' },
  { screen: 'keys', label: 'Keys' },
  { screen: 'server', label: 'Server' },
  { screen: 'settings', label: 'Settings' },
];

const SCREEN_VIEWS: Record<Screen, () => React.JSX.Element> = {
  datasets: DatasetsScreen,
  keys: KeysScreen,
  server: ServerScreen,
  settings: SettingsScreen,
};

export function App() {
  const screen = useApp((s) => s.screen);
  const setScreen = useApp((s) => s.setScreen);
  const View = SCREEN_VIEWS[screen];
  useEffect(() => listenToEvents(), []);
  return (
    <div className="app">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          svc <span className="muted">data audit &amp; fix</span>
        </div>
        <ul>
          {NAV.map((item) => (
            <li key={item.screen}>
              <a
                href={`#/${item.screen}`}
                className={item.screen === screen ? 'active' : undefined}
                aria-current={item.screen === screen ? 'page' : undefined}
                onClick={() => setScreen(item.screen)}
              >
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="content">
        <View />
      </main>
      <DropZone />
    </div>
  );
}
