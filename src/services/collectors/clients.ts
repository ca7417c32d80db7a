import type { ClientSession } from '../../auth/session.js';
import type { ClientModel, ClientsStore, CollectorType } from '../../db/stores/collectors/clients-store.js';
import type { TokenModel, TokensStore } from '../../db/stores/identity/tokens-store.js';
import type { Queryable } from '../../db/pool.js';
import { AppError, badRequest, conflict, notFound, unauthorized } from '../../errors.js';
import { paging } from '../common/paging.js';
import type { CreatedToken, TokensService } from '../identity/tokens.js';
import { requireUuid } from '../common/validate.js';

const CONTEXT = 'clients';

/** Collector types under the API document's names; GraphQL's ClientType enum (src/services/common/enums.ts). */
export const CLIENT_TYPE = {
  collectorAd: 'collector_ad',
  collectorAzure: 'collector_azure',
  collectorOpen: 'collector_open',
} as const satisfies Record<string, CollectorType>;
export type ClientTypeValue = (typeof CLIENT_TYPE)[keyof typeof CLIENT_TYPE];
export const COLLECTOR_TYPES: readonly CollectorType[] = Object.values(CLIENT_TYPE);

/** BloodHound's client type names (its clients send these) for the API document's ones. */
const BLOODHOUND_CLIENT_TYPES: Readonly<Record<string, CollectorType>> = {
  sharphound: 'collector_ad',
  azurehound: 'collector_azure',
  openhound: 'collector_open',
};

/** A client type as REST sends it: the API document's name or BloodHound's (sharphound, azurehound, openhound). */
export function clientType(raw: string): CollectorType {
  const type = BLOODHOUND_CLIENT_TYPES[raw.toLowerCase()] ?? raw;
  if (!COLLECTOR_TYPES.includes(type as CollectorType)) {
    throw badRequest(CONTEXT, `type must be one of: ${[...COLLECTOR_TYPES, ...Object.keys(BLOODHOUND_CLIENT_TYPES)].join(', ')}.`);
  }
  return type as CollectorType;
}

/** A client as resolvers see it; `issuedToken` (with its key) only right after creation. */
export type ClientView = ClientModel & { issuedToken?: CreatedToken };

export interface ClientsDeps {
  clients: ClientsStore;
  tokensStore: TokensStore;
  tokens: TokensService;
  /** Runs `fn` in one transaction with stores bound to it. */
  tx: <T>(fn: (q: Queryable) => Promise<T>) => Promise<T>;
  bindClients: (q: Queryable) => ClientsStore;
  bindTokens: (q: Queryable) => TokensStore;
  clock: () => Date;
}

/** Client names are unique (case-insensitively); the unique index has the last word under concurrency. */
function nameTaken(name: string) {
  return (err: unknown): never => {
    if (err instanceof AppError && err.code === 'CONFLICT') throw conflict(CONTEXT, `A client named "${name}" already exists.`);
    throw err;
  };
}

export const clientNotFound = () => notFound(CONTEXT, 'The requested client could not be found.');

/** Registered collector clients: the admin side (create, list, rename, new token, delete) and check-in. */
export function createClientsService(deps: ClientsDeps) {
  const { clients, clock } = deps;

  async function mustGet(id: string): Promise<ClientModel> {
    const c = await clients.get(requireUuid(CONTEXT, 'client_id', id));
    if (!c) throw clientNotFound();
    return c;
  }

  const name = (v: unknown): string => {
    if (typeof v !== 'string' || !v.trim()) throw badRequest(CONTEXT, 'name is required.');
    if (v.trim().length > 200) throw badRequest(CONTEXT, 'name is longer than 200 characters.');
    return v.trim();
  };
  const domainController = (v: unknown): string | null => {
    if (v === undefined || v === null || v === '') return null;
    if (typeof v !== 'string' || v.length > 255 || !/^[\w.-]+$/.test(v.trim())) {
      throw badRequest(CONTEXT, 'domain_controller must be a host name.');
    }
    return v.trim();
  };

  return {
    /** Turns a client-owned API token into the caller of a signed request (given to the tokens service as resolveClient). */
    async resolveSession(clientId: string, tokenId: string): Promise<ClientSession> {
      const c = await clients.get(clientId);
      if (!c) throw unauthorized('auth', 'Signed request rejected: the client of this token no longer exists.');
      await clients.touch(c.id, clock());
      return { kind: 'client', clientId: c.id, clientName: c.name, tokenId, method: 'signature' };
    },

    /** Registers a client and issues its token; the key is in this answer only. Duplicate names are 409. */
    async create(input: { name?: unknown; type: CollectorType; domainController?: unknown }): Promise<ClientView> {
      const n = name(input.name);
      const dc = domainController(input.domainController);
      return deps
        .tx(async (q) => {
          const created = await deps.bindClients(q).create({ name: n, type: input.type, domainController: dc });
          const issuedToken = await deps.tokens.createForClient(created.id, `${n} token`, deps.bindTokens(q));
          return { ...created, issuedToken };
        })
        .catch(nameTaken(n));
    },

    get: mustGet,

    async list(input: { skip?: number | null; limit?: number | null }) {
      const page = paging(CONTEXT, input, { limit: 100, max: 1000 });
      const { total, clients: list } = await clients.list(page.skip, page.limit);
      return { totalCount: total, skip: page.skip, limit: page.limit, clients: list };
    },

    async update(id: string, input: { name?: unknown; domainController?: unknown }): Promise<ClientModel> {
      const c = await mustGet(id);
      const newName = input.name === undefined || input.name === null ? undefined : name(input.name);
      await clients
        .update(c.id, {
          name: newName,
          domainController: input.domainController === undefined ? undefined : domainController(input.domainController),
        })
        .catch(nameTaken(newName ?? c.name));
      return (await clients.get(c.id))!;
    },

    /** Replaces the client's token (the old one stops working at once); the new key is in this answer only. */
    async regenerateToken(id: string): Promise<CreatedToken> {
      const c = await mustGet(id);
      return deps.tx(async (q) => {
        const tokens = deps.bindTokens(q);
        await tokens.deleteForClient(c.id);
        return deps.tokens.createForClient(c.id, `${c.name} token`, tokens);
      });
    },

    /** Deletes the client with its token, events and jobs. */
    async delete(id: string): Promise<void> {
      const c = await mustGet(id);
      await clients.delete(c.id);
    },

    token: (clientId: string): Promise<TokenModel | undefined> => deps.tokensStore.forClient(clientId),

    /** PUT /api/v2/clients/update: the collector reports where and as whom it runs. */
    async checkIn(s: ClientSession, input: Record<string, unknown>): Promise<ClientModel> {
      const text = (key: string, max = 255): string => {
        const v = input[key];
        if (v === undefined || v === null) return '';
        if (typeof v !== 'string' || v.length > max) throw badRequest(CONTEXT, `${key} must be a string of at most ${max} characters.`);
        return v.trim();
      };
      const userSid = text('usersid');
      if (userSid && !/^S-\d+(-\d+)+$/i.test(userSid)) throw badRequest(CONTEXT, 'usersid must be a SID (S-1-5-…).');
      await clients.checkIn(
        s.clientId,
        {
          address: text('address'),
          hostname: text('hostname'),
          username: text('username'),
          version: text('version', 64),
          userSid: userSid || null,
        },
        clock(),
      );
      return (await clients.get(s.clientId))!;
    },

    self: (s: ClientSession): Promise<ClientModel> => mustGet(s.clientId),
  };
}

export type ClientsService = ReturnType<typeof createClientsService>;
