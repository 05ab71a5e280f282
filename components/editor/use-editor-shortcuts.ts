"use client";

import { useEffect, useRef } from "react";
import { useEditorStoreApi } from "./editor-store-context";

export interface Shortcut {
  keys: string[];
  action: string;
}

/** Shown by the "?" overlay; kept next to the handler so they cannot drift apart. */
export const SHORTCUTS: Shortcut[] = [
  { keys: ["Ctrl/⌘", "Z"], action: "Undo" },
  { keys: ["Ctrl/⌘", "Shift", "Z"], action: "Redo" },
  { keys: ["Ctrl/⌘", "Y"], action: "Redo" },
  { keys: ["Ctrl/⌘", "C"], action: "Copy selected layers" },
  { keys: ["Ctrl/⌘", "V"], action: "Paste" },
  { keys: ["Ctrl/⌘", "A"], action: "Select all layers" },
  { keys: ["Delete"], action: "Delete selection (or Backspace)" },
  { keys: ["Ctrl/⌘", "S"], action: "Save a version" },
  { keys: ["Shift", "drag"], action: "Select an area" },
  { keys: ["Esc"], action: "Clear the selection" },
  { keys: ["?"], action: "Show these shortcuts" },
];

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return Boolean(el?.closest?.("input, textarea, select, [contenteditable='true']"));
}

/** Editor keyboard shortcuts; text fields keep their own undo, copy and delete. */
export function useEditorShortcuts(handlers: { onSave: () => void; onHelp: () => void }) {
  const store = useEditorStoreApi();
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && key === "s") {
        e.preventDefault();
        if (!document.querySelector("dialog[open]")) latest.current.onSave();
        return;
      }
      if (document.querySelector("dialog[open]") || isTyping(e.target)) return;
      const s = store.getState();
      if (mod && key === "z") {
        e.preventDefault();
        if (e.shiftKey) s.redo();
        else s.undo();
      } else if (mod && key === "y") {
        e.preventDefault();
        s.redo();
      } else if (mod && key === "c") {
        if (s.copySelection()) e.preventDefault();
      } else if (mod && key === "v") {
        e.preventDefault();
        s.paste();
      } else if (mod && key === "a") {
        e.preventDefault();
        s.selectAll(true);
      } else if (!mod && (e.key === "Delete" || e.key === "Backspace")) {
        e.preventDefault();
        s.deleteSelection();
      } else if (e.key === "Escape") {
        s.selectAll(false);
      } else if (e.key === "?") {
        e.preventDefault();
        latest.current.onHelp();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [store]);
}
