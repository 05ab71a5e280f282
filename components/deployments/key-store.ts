"use client";

/**
 * Deployment keys this tab has seen (at creation or rotation), kept in memory only: never in
 * storage, gone on reload. The console's try-it panel calls the inference routes with it, exactly as
 * a client would; after a reload the user pastes the key to try the deployment again.
 */
import { useSyncExternalStore } from "react";

const keys = new Map<string, string>();
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

export function rememberKey(deploymentId: string, key: string) {
  keys.set(deploymentId, key);
  emit();
}

export function forgetKey(deploymentId: string) {
  if (keys.delete(deploymentId)) emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The deployment's key, if this tab has it. */
export function useDeploymentKey(deploymentId: string): string | null {
  return useSyncExternalStore(
    subscribe,
    () => keys.get(deploymentId) ?? null,
    () => null,
  );
}
