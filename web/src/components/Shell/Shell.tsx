import { useEffect, type ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useSignOut, type SessionUser } from '../../core/session/session';
import { useTheme } from '../../core/theme/theme';

/** The frame of every signed-in page: the app's one navigation, the theme switch and sign-out. */
export function Shell({ user, children }: { user: SessionUser; children: ReactNode }) {
  const { theme, toggle } = useTheme();
  const signOut = useSignOut();
  useEffect(() => {
    document.title = 'Graph Analysis Service';
  }, []);
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">
          <img src="/ui/favicon.svg" alt="" /> Graph Analysis Service
        </span>
        <nav aria-label="Main">
          <ul>
            <li>
              <NavLink to="/explore">Explore</NavLink>
            </li>
            <li>
              <NavLink to="/ingest">File ingest</NavLink>
            </li>
            <li>
              <NavLink to="/administration">Administration</NavLink>
            </li>
          </ul>
        </nav>
        <span className="spacer" />
        <button type="button" onClick={toggle} aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}>
          {theme === 'dark' ? '☀ Light' : '☾ Dark'}
        </button>
        <span className="muted">{user.principalName}</span>
        <button type="button" onClick={() => void signOut()}>
          Log out
        </button>
      </header>
      <main>{children}</main>
    </div>
  );
}
