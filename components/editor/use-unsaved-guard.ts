"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";

/**
 * Nothing is lost when leaving the editor: closing or reloading the tab with unsaved changes asks
 * first (beforeunload), and in-app links wait for the pending save, asking only if it fails.
 */
export function useUnsavedGuard(isDirty: () => boolean, flush: () => Promise<unknown>) {
  const router = useRouter();
  const latest = useRef({ isDirty, flush });
  latest.current = { isDirty, flush };

  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!latest.current.isDirty()) return;
      e.preventDefault();
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      if (!latest.current.isDirty()) return;
      const anchor = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!anchor || (anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      e.preventDefault();
      e.stopPropagation();
      const go = () => router.push(`${url.pathname}${url.search}${url.hash}`);
      latest.current.flush().then(go, () => {
        if (window.confirm("Your latest changes could not be saved. Leave anyway and lose them?")) go();
      });
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [router]);
}
