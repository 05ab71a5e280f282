/**
 * A one-time message for the dataset browser, set just before navigating to it (e.g. "… was
 * deleted."), kept in sessionStorage so that it survives the navigation and is shown once.
 */
const KEY = "layerline:datasets-flash";

export function setDatasetFlash(message: string): void {
  try {
    sessionStorage.setItem(KEY, message);
  } catch {
    // Storage unavailable (private mode): no message, nothing else lost.
  }
}

export function takeDatasetFlash(): string | null {
  try {
    const message = sessionStorage.getItem(KEY);
    if (message !== null) sessionStorage.removeItem(KEY);
    return message;
  } catch {
    return null;
  }
}
