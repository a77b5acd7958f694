import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
// Before any row is shown: a BigInt (an id past 2^53, as IPC or the HTTP client delivers it) is
// written by JSON.stringify as its digits.
import '../src-shared/exact-json.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
