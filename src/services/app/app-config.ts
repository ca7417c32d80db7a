import type { UserSession } from '../../auth/session.js';
import type { AppConfigStore } from '../../db/stores/app/app-config-store.js';
import { badRequest } from '../../errors.js';

const CONTEXT = 'config';

/** An on/off parameter's value, in BloodHound's shape. */
export interface ToggleValue {
  enabled: boolean;
}
/** A duration in whole hours, in BloodHound's shape. */
export interface HoursValue {
  hours: number;
}
export type ParameterValue = ToggleValue | HoursValue;

/** A runtime parameter as both transports show it. */
export interface AppParameter {
  key: string;
  name: string;
  description: string;
  /** False for parameters the server's environment sets: the API shows them and refuses to change them. */
  writable: boolean;
  value: ParameterValue;
  /** When and by whom it was changed through the API; null while it has its default. */
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** What a change names: one typed field per writable key (GraphQL's AppConfigInput). */
export interface AppConfigInput {
  citrixRdpSupport?: ToggleValue | null;
}

/** BloodHound's key of each field of AppConfigInput: REST's PUT body names the key, GraphQL the field. */
export const CONFIG_INPUT_KEYS = { citrixRdpSupport: 'analysis.citrix_rdp_support' } as const satisfies Record<
  keyof Required<AppConfigInput>,
  string
>;

const CITRIX = CONFIG_INPUT_KEYS.citrixRdpSupport;
const SESSION_TTL = 'auth.session_ttl_hours';

interface Definition {
  name: string;
  description: string;
  /** The stored value when it has the current shape, else the default (a row written by an older shape). */
  read: (stored: unknown) => ParameterValue;
}

const isToggle = (v: unknown): v is ToggleValue =>
  typeof v === 'object' && v !== null && typeof (v as Record<string, unknown>).enabled === 'boolean';

/**
 * The parameters we store, with BloodHound's keys, names and value shapes. Only parameters the server acts on
 * are here (docs/decisions.md lists BloodHound's others and why they are absent).
 */
const WRITABLE: Record<string, Definition> = {
  [CITRIX]: {
    name: 'Citrix RDP Support',
    description:
      "When enabled, a computer with a 'Direct Access Users' local group is taken to run Citrix: CanRDP to it needs " +
      "membership of both 'Direct Access Users' and 'Remote Desktop Users'. Applies from the next analysis run.",
    read: (v) => ({ enabled: isToggle(v) ? v.enabled : false }),
  },
};

export interface AppConfigDeps {
  store: AppConfigStore;
  /** SESSION_TTL_HOURS: shown read-only, as BloodHound protects auth.session_ttl_hours from the API. */
  sessionTtlHours: number;
}

/** Runtime parameters (BloodHound's appcfg): GET|PUT /api/v2/config and the analysis options they drive. */
export function createAppConfigService(deps: AppConfigDeps) {
  const { store } = deps;

  async function all(): Promise<AppParameter[]> {
    const stored = new Map((await store.list()).map((r) => [r.key, r]));
    const writable = Object.entries(WRITABLE).map(([key, d]): AppParameter => {
      const row = stored.get(key);
      return {
        key,
        name: d.name,
        description: d.description,
        writable: true,
        value: d.read(row?.value),
        updatedAt: row?.updatedAt ?? null,
        updatedBy: row?.updatedBy ?? null,
      };
    });
    const sessionTtl: AppParameter = {
      key: SESSION_TTL,
      name: 'Session TTL Hours',
      description: 'How long a login session lasts, in hours. Set by the server environment (SESSION_TTL_HOURS).',
      writable: false,
      value: { hours: deps.sessionTtlHours },
      updatedAt: null,
      updatedBy: null,
    };
    return [...writable, sessionTtl].sort((a, b) => a.key.localeCompare(b.key));
  }

  return {
    /** Every parameter, or the one named `key` (an unknown key gives an empty list, as a filter would). */
    async list(key?: string | null): Promise<AppParameter[]> {
      const params = await all();
      return key == null ? params : params.filter((p) => p.key === key);
    },

    /** Changes exactly one parameter; answers it as stored. */
    async update(s: UserSession, input: AppConfigInput): Promise<AppParameter> {
      const given = (Object.keys(CONFIG_INPUT_KEYS) as (keyof AppConfigInput)[]).filter((f) => input[f] != null);
      if (given.length !== 1) throw badRequest(CONTEXT, 'name exactly one parameter to change.');
      const field = given[0]!;
      const key = CONFIG_INPUT_KEYS[field];
      await store.set(key, { ...input[field] }, s.principalName);
      return (await all()).find((p) => p.key === key)!;
    },

    /** The Citrix flag for the next analysis run. */
    async citrixRdpSupport(): Promise<boolean> {
      const row = (await store.list()).find((r) => r.key === CITRIX);
      return (WRITABLE[CITRIX]!.read(row?.value) as ToggleValue).enabled;
    },
  };
}

/**
 * The AppConfigInput field of a BloodHound key (REST's PUT names the key). 400 for a key the API cannot change,
 * with why.
 */
export function configInputField(key: string): keyof AppConfigInput {
  const field = (Object.keys(CONFIG_INPUT_KEYS) as (keyof AppConfigInput)[]).find((f) => CONFIG_INPUT_KEYS[f] === key);
  if (field) return field;
  if (key === SESSION_TTL) throw badRequest(CONTEXT, `${key} is set by the server environment (SESSION_TTL_HOURS), not through the API.`);
  throw badRequest(CONTEXT, `${key} is not a parameter this server has (writable: ${Object.values(CONFIG_INPUT_KEYS).join(', ')}).`);
}

export type AppConfigService = ReturnType<typeof createAppConfigService>;
