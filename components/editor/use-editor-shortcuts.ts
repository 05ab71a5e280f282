"use client";

import { useEffect, useRef } from "react";
import { encodeClip, readClip } from "@/lib/editor/clip-format";
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
  { keys: ["Ctrl/⌘", "C"], action: "Copy selected layers (to paste here or in another project)" },
  { keys: ["Ctrl/⌘", "V"], action: "Paste copied layers" },
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

/** Keys and clipboard events belong to the diagram unless a dialog is open or a text field has focus. */
function forDiagram(target: EventTarget | null): boolean {
  return !document.querySelector("dialog[open]") && !isTyping(target);
}

/** Text selected on the page (a label, a message) is copied as text, not as layers. */
function hasTextSelection(): boolean {
  const selection = window.getSelection();
  return Boolean(selection && !selection.isCollapsed && selection.toString() !== "");
}

/**
 * Editor keyboard shortcuts; text fields keep their own undo, copy, paste and delete.
 * Copy and paste go through the `copy`/`paste` events, which read and write the system clipboard
 * without asking for permission, so layers can be pasted into another project or tab.
 */
export function useEditorShortcuts(handlers: {
  onSave: () => void;
  onHelp: () => void;
  /** A polite message for the person, e.g. why nothing was pasted. */
  onNotice: (message: string) => void;
}) {
  const store = useEditorStoreApi();
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    // The last copy made here never reached the system clipboard (no `copy` event followed the keys).
    let copyMissedClipboard = false;
    const onKeyDown = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && key === "s") {
        e.preventDefault();
        if (!document.querySelector("dialog[open]")) latest.current.onSave();
        return;
      }
      if (!forDiagram(e.target)) return;
      const s = store.getState();
      if (mod && key === "z") {
        e.preventDefault();
        if (e.shiftKey) s.redo();
        else s.undo();
      } else if (mod && key === "y") {
        e.preventDefault();
        s.redo();
      } else if (mod && key === "c") {
        // Not prevented: the browser goes on to fire `copy`. Safari and Firefox fire none when no text
        // is selected, so the layers are also kept here for a paste in this editor.
        if (!hasTextSelection() && s.copySelection()) copyMissedClipboard = true;
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
    const onCopy = (e: ClipboardEvent) => {
      if (!forDiagram(e.target) || hasTextSelection() || !e.clipboardData) return;
      const clip = store.getState().copySelection();
      if (!clip) return;
      e.clipboardData.setData("text/plain", encodeClip(clip));
      e.preventDefault();
      copyMissedClipboard = false;
    };
    const onPaste = (e: ClipboardEvent) => {
      if (!forDiagram(e.target)) return;
      e.preventDefault();
      const s = store.getState();
      const read = readClip(e.clipboardData?.getData("text/plain") ?? "");
      if (read.kind === "clip") s.paste(read.clip);
      else if (read.kind === "invalid") latest.current.onNotice(read.message);
      // Other text is ignored, unless the last copy here never reached the clipboard: then that copy.
      else if (copyMissedClipboard) s.paste();
    };
    window.addEventListener("keydown", onKeyDown);
    window.addEventListener("copy", onCopy);
    window.addEventListener("paste", onPaste);
    return () => {
      window.removeEventListener("keydown", onKeyDown);
      window.removeEventListener("copy", onCopy);
      window.removeEventListener("paste", onPaste);
    };
  }, [store]);
}
