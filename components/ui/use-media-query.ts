"use client";

import { useSyncExternalStore } from "react";

/** Whether a CSS media query matches now, following changes (false on the server). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Below Tailwind's `md` breakpoint (768 px): the studio's phone layout. */
export const PHONE_QUERY = "(max-width: 767.98px)";
