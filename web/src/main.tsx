import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Root } from './core/Root';
import './core/cypher/run';
import { applyTheme, useTheme } from './core/theme/theme';
import './styles/app.css';

applyTheme(useTheme.getState().theme);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
