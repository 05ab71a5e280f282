/**
 * Where to go after signing in or up: the `next` query parameter of /login and /signup, when it is a
 * path on this site, else the default. Browsers treat `//host`, `/\host` and `\\host` as other hosts,
 * drop tabs and newlines from URLs (`/\t/host` is `//host`), and a path may carry those characters
 * percent-encoded, so the value must, at every layer of percent-decoding: start with exactly one `/`
 * followed by neither `/` nor `\`, hold no backslash and no control character, and resolve to this
 * origin. Pure: the studio and tests share it.
 */
export const DEFAULT_NEXT_PATH = "/projects";

/** The same-origin path `next` names, or `fallback`. */
export function safeNextPath(next: string | null | undefined, fallback = DEFAULT_NEXT_PATH): string {
  if (!next || next.length > 2048) return fallback;
  let layer = next;
  for (let depth = 0; depth < 5; depth++) {
    if (!isSafePathLayer(layer)) return fallback;
    let decoded: string;
    try {
      decoded = decodeURIComponent(layer);
    } catch {
      return fallback; // a malformed escape: not something this site links to
    }
    if (decoded === layer) return next;
    layer = decoded;
  }
  return fallback; // encoded five times over: no page of ours
}

function isSafePathLayer(path: string): boolean {
  if (path[0] !== "/" || path[1] === "/" || path[1] === "\\") return false;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x5c) return false; // control characters, backslash
  }
  try {
    const base = "http://layerline.invalid";
    return new URL(path, base).origin === base;
  } catch {
    return false;
  }
}
