/** Who is calling: a user (by JWT or by a user's API token) or a collector client (by the client's API token). */
export type Session = UserSession | ClientSession;

export interface UserSession {
  kind: 'user';
  userId: string;
  principalName: string;
  /** Effective permissions as `authority/name`. */
  permissions: ReadonlySet<string>;
  roles: readonly string[];
  method: 'jwt' | 'signature';
  /** user_sessions.id when authenticated by JWT. */
  sessionId?: number;
  /** auth_tokens.id when authenticated by a signed request. */
  tokenId?: string;
}

export interface ClientSession {
  kind: 'client';
  clientId: string;
  clientName: string;
  tokenId: string;
  method: 'signature';
}

export const PERMISSIONS = {
  AppReadConfig: 'app/ReadAppConfig',
  AuthCreateToken: 'auth/CreateToken',
  AuthManageProviders: 'auth/ManageProviders',
  AuthManageSelf: 'auth/ManageSelf',
  AuthManageUsers: 'auth/ManageUsers',
  AuthReadUsers: 'auth/ReadUsers',
  ClientsManage: 'clients/Manage',
  ClientsRead: 'clients/Read',
  ClientsTasking: 'clients/Tasking',
  CollectionManageJobs: 'collection/ManageJobs',
  GraphDBIngest: 'graphdb/Ingest',
  GraphDBRead: 'graphdb/Read',
  GraphDBWrite: 'graphdb/Write',
} as const;
