"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";

const LEAVE_UNSAVED = "Your latest changes could not be saved. Leave anyway and lose them?";

interface Pending {
  isDirty: () => boolean;
  flush: () => Promise<unknown>;
}

/** The parts of the Navigation API used here: TypeScript's DOM types do not declare them yet. */
interface NavigateEventLike extends Event {
  readonly navigationType: "push" | "replace" | "reload" | "traverse";
  readonly destination: { readonly key: string };
}
interface NavigationLike extends EventTarget {
  traverseTo(key: string): { committed: Promise<unknown>; finished: Promise<unknown> };
}

/**
 * Nothing is lost when leaving the editor: closing or reloading the tab with unsaved changes asks
 * first (beforeunload); in-app links and Back/Forward wait for the pending save, asking only if it
 * fails; any other way out still sends the pending save.
 */
export function useUnsavedGuard(isDirty: () => boolean, flush: () => Promise<unknown>) {
  const router = useRouter();
  const latest = useRef<Pending>({ isDirty, flush });
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
        if (window.confirm(LEAVE_UNSAVED)) go();
      });
    };
    const stopGuardingHistory = guardBackForward(latest);
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      stopGuardingHistory();
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
      // Left by a way no guard could hold (a Back the browser would not let us cancel): the debounced
      // save dies with the editor, so send it now. The request outlives the unmounted component.
      if (latest.current.isDirty()) latest.current.flush().catch(() => undefined);
    };
  }, [router]);
}

/**
 * Back/Forward while the editor has unsaved changes: hold the move until the save is done.
 *
 * The App Router has no route-change events to veto. It renders the page of the entry the browser
 * moved to from its `popstate` listener, synchronously, so the editor is gone before a later listener
 * runs (listeners on window run in the order they were added, capture or not, and Next.js adds its
 * listener first). The Navigation API's `navigate` event comes earlier, before the move: cancelling
 * it keeps the editor and its address; once saved (or the person agrees to lose the changes) the
 * same move is made again with traverseTo().
 *
 * Browsers let a page cancel Back only after the person interacted with it, once per interaction,
 * so no page can trap them, and older browsers lack the API. When the move cannot be held, the page
 * leaves, and the unmount starts the save (see useUnsavedGuard).
 */
function guardBackForward(latest: { readonly current: Pending }): () => void {
  const navigation = (window as Window & { navigation?: NavigationLike }).navigation;
  if (!navigation) return () => undefined;
  let held: string | null = null; // where the held move goes
  let released: string | null = null; // the move let through after the save
  let stopped = false;

  const onNavigate = (event: Event) => {
    const e = event as NavigateEventLike;
    if (e.navigationType !== "traverse") return;
    if (e.destination.key === released) {
      released = null;
      return;
    }
    if (!e.cancelable || (held === null && !latest.current.isDirty())) return;
    e.preventDefault();
    const first = held === null;
    held = e.destination.key; // a second Back while saving goes further
    if (!first) return;
    latest.current
      .flush()
      .then(
        () => true,
        () => window.confirm(LEAVE_UNSAVED),
      )
      .then((leave) => {
        const destination = held;
        held = null;
        if (!leave || stopped || destination === null) return;
        released = destination;
        const { committed, finished } = navigation.traverseTo(destination);
        // Both reject if that entry went away meanwhile: then there is nowhere to go.
        Promise.allSettled([committed, finished]);
      });
  };

  navigation.addEventListener("navigate", onNavigate);
  return () => {
    stopped = true;
    navigation.removeEventListener("navigate", onNavigate);
  };
}
