import type { IconDefinition } from '@fortawesome/free-solid-svg-icons';
// One module per icon, so the first load carries these icons only, not the whole set.
import { definition as faArrowsLeftRightToLine } from '@fortawesome/free-solid-svg-icons/faArrowsLeftRightToLine';
import { definition as faBolt } from '@fortawesome/free-solid-svg-icons/faBolt';
import { definition as faBox } from '@fortawesome/free-solid-svg-icons/faBox';
import { definition as faBoxOpen } from '@fortawesome/free-solid-svg-icons/faBoxOpen';
import { definition as faBuilding } from '@fortawesome/free-solid-svg-icons/faBuilding';
import { definition as faClipboardCheck } from '@fortawesome/free-solid-svg-icons/faClipboardCheck';
import { definition as faClipboardList } from '@fortawesome/free-solid-svg-icons/faClipboardList';
import { definition as faCloud } from '@fortawesome/free-solid-svg-icons/faCloud';
import { definition as faCube } from '@fortawesome/free-solid-svg-icons/faCube';
import { definition as faCubes } from '@fortawesome/free-solid-svg-icons/faCubes';
import { definition as faDesktop } from '@fortawesome/free-solid-svg-icons/faDesktop';
import { definition as faGear } from '@fortawesome/free-solid-svg-icons/faGear';
import { definition as faGlobe } from '@fortawesome/free-solid-svg-icons/faGlobe';
import { definition as faIdBadge } from '@fortawesome/free-solid-svg-icons/faIdBadge';
import { definition as faIdCard } from '@fortawesome/free-solid-svg-icons/faIdCard';
import { definition as faKey } from '@fortawesome/free-solid-svg-icons/faKey';
import { definition as faLandmark } from '@fortawesome/free-solid-svg-icons/faLandmark';
import { definition as faList } from '@fortawesome/free-solid-svg-icons/faList';
import { definition as faLock } from '@fortawesome/free-solid-svg-icons/faLock';
import { definition as faObjectGroup } from '@fortawesome/free-solid-svg-icons/faObjectGroup';
import { definition as faQuestion } from '@fortawesome/free-solid-svg-icons/faQuestion';
import { definition as faRobot } from '@fortawesome/free-solid-svg-icons/faRobot';
import { definition as faServer } from '@fortawesome/free-solid-svg-icons/faServer';
import { definition as faSitemap } from '@fortawesome/free-solid-svg-icons/faSitemap';
import { definition as faStore } from '@fortawesome/free-solid-svg-icons/faStore';
import { definition as faUser } from '@fortawesome/free-solid-svg-icons/faUser';
import { definition as faUsers } from '@fortawesome/free-solid-svg-icons/faUsers';
import { definition as faWindowRestore } from '@fortawesome/free-solid-svg-icons/faWindowRestore';

/**
 * The icons the built-in node kinds use (src/graph/kinds.ts names them), bundled with the first load. Any other
 * icon name (a custom node kind's) comes from the whole free icon set, loaded once when a custom kind needs it.
 */
const BUILTIN: Record<string, IconDefinition> = {
  'arrows-left-right-to-line': faArrowsLeftRightToLine,
  bolt: faBolt,
  box: faBox,
  'box-open': faBoxOpen,
  building: faBuilding,
  'clipboard-check': faClipboardCheck,
  'clipboard-list': faClipboardList,
  cloud: faCloud,
  cog: faGear,
  cube: faCube,
  cubes: faCubes,
  desktop: faDesktop,
  globe: faGlobe,
  'id-badge': faIdBadge,
  'id-card': faIdCard,
  key: faKey,
  landmark: faLandmark,
  list: faList,
  lock: faLock,
  'object-group': faObjectGroup,
  question: faQuestion,
  robot: faRobot,
  server: faServer,
  sitemap: faSitemap,
  store: faStore,
  user: faUser,
  users: faUsers,
  'window-restore': faWindowRestore,
};

/** An icon as an SVG data URL (what sigma's image program and an <img> both draw). */
export function iconUrl(def: IconDefinition, color = '#000000'): string {
  const [w, h, , , path] = def.icon;
  const d = Array.isArray(path) ? path.join(' ') : path;
  // width and height too: an SVG image needs an intrinsic size to be drawn into a canvas texture.
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><path fill="${color}" d="${d}"/></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

let fullSet: Promise<Map<string, IconDefinition>> | undefined;

/** The whole free solid set by name and alias (a separate chunk, fetched from this server on first use). */
function loadFullSet(): Promise<Map<string, IconDefinition>> {
  fullSet ??= import('@fortawesome/free-solid-svg-icons').then((mod) => {
    const byName = new Map<string, IconDefinition>();
    for (const v of Object.values(mod)) {
      const def = v as IconDefinition;
      if (!def || typeof def !== 'object' || !('iconName' in def) || !Array.isArray(def.icon)) continue;
      if (!byName.has(def.iconName)) byName.set(def.iconName, def);
      for (const alias of def.icon[2]) if (typeof alias === 'string' && !byName.has(alias)) byName.set(alias, def);
    }
    return byName;
  });
  return fullSet;
}

/** The built-in icon of that name, if it is one. */
export function builtinIcon(name: string): IconDefinition | undefined {
  return BUILTIN[name];
}

/** Any icon of the set by name (custom node kinds); the question mark when the set has no such icon. */
export async function resolveIcon(name: string): Promise<IconDefinition> {
  return BUILTIN[name] ?? (await loadFullSet()).get(name) ?? faQuestion;
}
