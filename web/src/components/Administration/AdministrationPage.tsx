import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { can, type SessionUser } from '../../core/session/session';
import { ClientsAdmin } from './ClientsAdmin';
import { ConfigurationAdmin } from './ConfigurationAdmin';
import { DataQualityAdmin } from './DataQualityAdmin';
import { SsoAdmin } from './SsoAdmin';
import { TokensAdmin } from './TokensAdmin';
import { UsersAdmin } from './UsersAdmin';
import { ZonesAdmin } from './ZonesAdmin';

interface Page {
  path: string;
  title: string;
  /** Shown to users holding this permission (the server refuses the others anyway). */
  permission?: string;
  enterprise?: boolean;
}

const PAGES: Page[] = [
  { path: 'users', title: 'Users', permission: 'auth/ManageUsers' },
  { path: 'tokens', title: 'API tokens', permission: 'auth/CreateToken' },
  { path: 'sso', title: 'SSO providers', permission: 'auth/ManageProviders' },
  { path: 'zones', title: 'Zones and labels', permission: 'graphdb/Read' },
  { path: 'collectors', title: 'Collectors', permission: 'clients/Read', enterprise: true },
  { path: 'configuration', title: 'Configuration', permission: 'app/ReadAppConfig' },
  { path: 'data-quality', title: 'Data quality', permission: 'graphdb/Read' },
];

/** Administration: one page per area, listed for what the user may do. */
export default function AdministrationPage({ user }: { user: SessionUser }) {
  const location = useLocation();
  const pages = PAGES.filter((p) => (!p.permission || can(user, p.permission)) && (!p.enterprise || user.edition === 'ENTERPRISE'));
  const current = location.pathname.split('/')[2];
  return (
    <div className="admin">
      <div className="subnav">
        <ul aria-label="Administration pages">
          {pages.map((p) => (
            <li key={p.path}>
              <Link to={`/administration/${p.path}`} aria-current={current === p.path ? 'page' : undefined}>
                {p.title}
              </Link>
            </li>
          ))}
        </ul>
      </div>
      <div className="content">
        <Routes>
          <Route index element={pages.length ? <Navigate to={pages[0]!.path} replace /> : <p>Your role has no administration pages.</p>} />
          <Route path="users" element={<UsersAdmin self={user} />} />
          <Route path="tokens" element={<TokensAdmin user={user} />} />
          <Route path="sso" element={<SsoAdmin />} />
          <Route path="zones" element={<ZonesAdmin />} />
          <Route path="collectors" element={<ClientsAdmin />} />
          <Route path="configuration" element={<ConfigurationAdmin />} />
          <Route path="data-quality" element={<DataQualityAdmin user={user} />} />
          <Route path="*" element={<Navigate to="/administration" replace />} />
        </Routes>
      </div>
    </div>
  );
}
