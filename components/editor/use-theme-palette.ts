"use client";

import { useEffect, useRef, useState } from "react";

/**
 * Colours a canvas needs, read from the page's theme variables after mount and again whenever the
 * theme changes (the `class` or `style` of <html>). Null until mounted (nothing to read on the server).
 */
export function useThemePalette<T>(read: (root: Element) => T): T | null {
  const reader = useRef(read);
  reader.current = read;
  const [palette, setPalette] = useState<T | null>(null);
  useEffect(() => {
    const root = document.documentElement;
    const update = () => setPalette(reader.current(root));
    update();
    const observer = new MutationObserver(update);
    observer.observe(root, { attributes: true, attributeFilter: ["class", "style", "data-theme"] });
    return () => observer.disconnect();
  }, []);
  return palette;
}
