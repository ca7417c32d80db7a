import type { Queryable } from '../../db/pool.js';
import type { CustomNodeKindModel, CustomNodesStore, IconConfig } from '../../db/stores/graph/custom-nodes-store.js';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import type { IconLookup } from '../../graph/format.js';

const CONTEXT = 'custom-nodes';
const KIND_NAME = /^[A-Za-z][A-Za-z0-9_]{0,99}$/;
/** How long the icon table read for Graph answers is reused (see `icons`). */
const ICONS_TTL_MS = 1000;
const ICON_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
/** The icon set's value; `font-awesome` (BloodHound's spelling) is accepted as an alias and stored as `iconset`. */
const ICON_TYPES = new Set(['iconset', 'font-awesome']);

/** A kind's display config, validated field by field (400 naming the field); the color defaults to white. */
export function readIconConfig(context: string, raw: unknown, where = 'config'): IconConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest(context, `${where} must be an object with an icon.`);
  const icon = (raw as Record<string, unknown>).icon;
  if (typeof icon !== 'object' || icon === null || Array.isArray(icon)) throw badRequest(context, `${where}.icon must be an object.`);
  const { type, name, color } = icon as Record<string, unknown>;
  if (typeof type !== 'string' || !ICON_TYPES.has(type)) {
    throw badRequest(context, `${where}.icon.type must be "iconset" (the icon set; "font-awesome" is accepted too).`);
  }
  if (typeof name !== 'string' || !ICON_NAME.test(name)) {
    throw badRequest(context, `${where}.icon.name must be a non-empty icon name (lower-case letters, digits and hyphens).`);
  }
  if (color !== undefined && color !== null && color !== '' && (typeof color !== 'string' || !COLOR.test(color))) {
    throw badRequest(context, `${where}.icon.color must be a hex color, #RGB or #RRGGBB.`);
  }
  return { icon: { type: 'iconset', name, color: typeof color === 'string' && color ? color.toUpperCase() : '#FFFFFF' } };
}

function kindName(raw: unknown): string {
  if (typeof raw !== 'string' || !KIND_NAME.test(raw)) {
    throw badRequest(CONTEXT, 'kind_name must start with a letter and hold only letters, digits and underscores (at most 100).');
  }
  return raw;
}

export interface CustomNodesDeps {
  store: CustomNodesStore;
  tx: <T>(fn: (q: Queryable) => Promise<T>) => Promise<T>;
  bind: (q: Queryable) => CustomNodesStore;
}

/** Custom node kinds and how nodes of those kinds are drawn in the Graph format. */
export function createCustomNodesService(deps: CustomNodesDeps) {
  const { store } = deps;
  const unknown = () => notFound(CONTEXT, 'The requested custom node kind could not be found.');

  // Every Graph answer draws its nodes with these icons, so the table is read at most once per ICONS_TTL_MS rather
  // than once per answer. A change made here drops it at once; one made by another replica shows within the TTL
  // (icons are display only: nothing is allowed or refused by them).
  let iconCache: { at: number; lookup: Promise<IconLookup> } | undefined;
  const changed = <T>(result: T): T => {
    iconCache = undefined;
    return result;
  };
  const loadIcons = async (): Promise<IconLookup> => {
    const byKind = new Map((await store.list()).map((k) => [k.kindName, k.config]));
    return (kind) => {
      const icon = byKind.get(kind)?.icon;
      return icon && ICON_NAME.test(icon.name) && COLOR.test(icon.color) ? { icon: icon.name, color: icon.color } : undefined;
    };
  };

  return {
    list: () => store.list(),

    async get(name: string): Promise<CustomNodeKindModel> {
      const kind = await store.get(kindName(name));
      if (!kind) throw unknown();
      return kind;
    },

    /** Creates several kinds at once, all or nothing; an existing name is 409. */
    async create(kinds: readonly { kindName: unknown; config: unknown }[]): Promise<CustomNodeKindModel[]> {
      if (!kinds.length) throw badRequest(CONTEXT, 'custom_types must name at least one kind.');
      const valid = kinds.map((k) => ({
        name: kindName(k.kindName),
        config: readIconConfig(CONTEXT, k.config, `custom_types.${String(k.kindName)}`),
      }));
      const dup = valid.find((k, i) => valid.findIndex((o) => o.name === k.name) !== i);
      if (dup) throw badRequest(CONTEXT, `custom_types names ${dup.name} twice.`);
      return deps
        .tx(async (q) => {
          const s = deps.bind(q);
          const out: CustomNodeKindModel[] = [];
          for (const k of valid) out.push(await s.create(k.name, k.config));
          return out;
        })
        .then(changed)
        .catch((err) => {
          if (err instanceof AppError && err.code === 'CONFLICT')
            throw conflict(CONTEXT, 'A custom node kind with that name already exists.');
          throw err;
        });
    },

    /** Endpoint 4. */
    async update(name: string, config: unknown): Promise<CustomNodeKindModel> {
      const k = kindName(name);
      const updated = changed(await store.update(k, readIconConfig(CONTEXT, config)));
      if (!updated) throw unknown();
      return updated;
    },

    async delete(name: string): Promise<void> {
      if (!changed(await store.delete(kindName(name)))) throw unknown();
    },

    /** Icons of custom kinds for the Graph format (cached for ICONS_TTL_MS, see above). */
    icons(): Promise<IconLookup> {
      const now = Date.now();
      if (!iconCache || now - iconCache.at > ICONS_TTL_MS) {
        const entry = { at: now, lookup: loadIcons() };
        iconCache = entry;
        // A failed read is not kept: the next answer tries again.
        entry.lookup.catch(() => {
          if (iconCache === entry) iconCache = undefined;
        });
      }
      return iconCache.lookup;
    },
  };
}

export type CustomNodesService = ReturnType<typeof createCustomNodesService>;
