import { builtinIcon, iconUrl, resolveIcon } from './icons';

/** Icons are drawn dark on the kind's colour, as BloodHound draws them. */
const ICON_COLOR = '#141414';
const cache = new Map<string, string>();
const pending = new Set<string>();

/**
 * The image URL of an icon by name: built-in ones at once; another (a custom kind's) once the full icon set has
 * loaded, with a question mark until then and `onLoaded` called when it is there.
 */
export function iconImage(name: string, onLoaded?: () => void): string {
  const hit = cache.get(name);
  if (hit) return hit;
  const builtin = builtinIcon(name);
  if (builtin) {
    const url = iconUrl(builtin, ICON_COLOR);
    cache.set(name, url);
    return url;
  }
  if (!pending.has(name)) {
    pending.add(name);
    void resolveIcon(name).then((def) => {
      cache.set(name, iconUrl(def, ICON_COLOR));
      onLoaded?.();
    });
  }
  return iconUrl(builtinIcon('question')!, ICON_COLOR);
}
