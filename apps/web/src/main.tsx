import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { preloadScreenFor } from './routing/lazy-screens';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

void preloadScreenFor(window.location.hash);

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
