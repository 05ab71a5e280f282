"use client";

/**
 * The read-only Monaco editor of the Code tab. Client-only (loaded with `dynamic(..., { ssr: false })`
 * from code-workspace.tsx) so Monaco and its worker are bundled from node_modules, never fetched from a
 * CDN, and only on the page that shows code.
 */
import Editor, { loader } from "@monaco-editor/react";
import * as monaco from "monaco-editor";
import { useEffect, useMemo } from "react";
import type { GeneratedFile } from "./format";
import { useDarkTheme } from "./use-dark-theme";

const LIGHT = "layerline-light";
const DARK = "layerline-dark";

function setUpMonaco() {
  self.MonacoEnvironment = {
    getWorker: () =>
      new Worker(new URL("monaco-editor/editor/editor.worker.js", import.meta.url), { type: "module" }),
  };
  // Generated code is only read: keep the tokenizers, drop the language services (they would need
  // workers of their own, and would flag imports of packages the browser does not have).
  monaco.typescript.javascriptDefaults.setModeConfiguration({
    completionItems: false,
    hovers: false,
    documentSymbols: false,
    definitions: false,
    references: false,
    documentHighlights: false,
    rename: false,
    diagnostics: false,
    documentRangeFormattingEdits: false,
    signatureHelp: false,
    onTypeFormattingEdits: false,
    codeActions: false,
    inlayHints: false,
  });
  monaco.json.jsonDefaults.setModeConfiguration({
    documentFormattingEdits: false,
    documentRangeFormattingEdits: false,
    completionItems: false,
    hovers: false,
    documentSymbols: false,
    tokens: true,
    colors: false,
    foldingRanges: false,
    diagnostics: false,
    selectionRanges: false,
  });
  // The app's panel colours around the stock vs / vs-dark token colours.
  monaco.editor.defineTheme(LIGHT, {
    base: "vs",
    inherit: true,
    rules: [],
    colors: {
      "editor.background": "#ffffff",
      "editorGutter.background": "#ffffff",
      "editorLineNumber.foreground": "#6b7080",
      "editorLineNumber.activeForeground": "#15171c",
      "editor.lineHighlightBackground": "#f4f5f8",
      "editor.lineHighlightBorder": "#00000000",
      "editor.selectionBackground": "#d9d6fb",
      "editor.inactiveSelectionBackground": "#e8e6fc",
      "editorIndentGuide.background1": "#eceef2",
      "editorIndentGuide.activeBackground1": "#d5d8e0",
      "editorWidget.background": "#ffffff",
      "editorWidget.border": "#e2e4ea",
      "scrollbarSlider.background": "#15171c1f",
      "scrollbarSlider.hoverBackground": "#15171c33",
      "scrollbarSlider.activeBackground": "#15171c4d",
      focusBorder: "#4f46e5",
    },
  });
  monaco.editor.defineTheme(DARK, {
    base: "vs-dark",
    inherit: true,
    rules: [],
    colors: {
      "editor.background": "#161920",
      "editorGutter.background": "#161920",
      "editorLineNumber.foreground": "#858b9b",
      "editorLineNumber.activeForeground": "#e8eaf0",
      "editor.lineHighlightBackground": "#1d2129",
      "editor.lineHighlightBorder": "#00000000",
      "editor.selectionBackground": "#35327a",
      "editor.inactiveSelectionBackground": "#2a2858",
      "editorIndentGuide.background1": "#23272f",
      "editorIndentGuide.activeBackground1": "#363c48",
      "editorWidget.background": "#1d2129",
      "editorWidget.border": "#2a2f3a",
      "scrollbarSlider.background": "#e8eaf01f",
      "scrollbarSlider.hoverBackground": "#e8eaf033",
      "scrollbarSlider.activeBackground": "#e8eaf04d",
      focusBorder: "#8b85ff",
    },
  });
  loader.config({ monaco });
}

setUpMonaco();

const OPTIONS: monaco.editor.IStandaloneEditorConstructionOptions = {
  readOnly: true,
  domReadOnly: true,
  readOnlyMessage: { value: "Generated code is read-only: change the diagram to change it." },
  minimap: { enabled: false },
  lineNumbers: "on",
  // "dimmed" (the default) draws the number of the empty last line too faint to read.
  renderFinalNewline: "off",
  wordWrap: "off",
  automaticLayout: true,
  scrollBeyondLastLine: false,
  fontFamily: '"JetBrains Mono Variable", ui-monospace, SFMono-Regular, Menlo, monospace',
  fontSize: 13,
  lineHeight: 20,
  fontLigatures: false,
  padding: { top: 12, bottom: 12 },
  renderLineHighlight: "line",
  renderLineHighlightOnlyWhenFocus: true,
  stickyScroll: { enabled: false },
  occurrencesHighlight: "off",
  selectionHighlight: false,
  links: false,
  folding: true,
  showFoldingControls: "mouseover",
  guides: { indentation: true },
  overviewRulerLanes: 0,
  hideCursorInOverviewRuler: true,
  overviewRulerBorder: false,
  contextmenu: true,
  smoothScrolling: true,
  scrollbar: { verticalScrollbarSize: 10, horizontalScrollbarSize: 10, useShadows: false },
  tabSize: 4,
};

/** The model of one file: one per project, target and path, so each keeps its scroll position. */
function modelPath(projectId: string, target: string, path: string): string {
  return `layerline://${encodeURIComponent(projectId)}/${target}/${path}`;
}

export default function CodeViewer({
  projectId,
  target,
  file,
}: {
  projectId: string;
  target: string;
  file: GeneratedFile;
}) {
  const dark = useDarkTheme();
  const path = modelPath(projectId, target, file.path);
  const options = useMemo(
    () => ({
      ...OPTIONS,
      ariaLabel: `${file.path} (read-only)`,
      tabSize: file.language === "python" ? 4 : 2,
    }),
    [file.path, file.language],
  );

  // A model created earlier for this path may hold older code (the diagram changed since, or a task
  // produced these files): bring it up to date. Runs after the editor has switched to the path.
  useEffect(() => {
    const model = monaco.editor.getModel(monaco.Uri.parse(path));
    if (model && model.getValue() !== file.content) model.setValue(file.content);
  }, [path, file.content]);

  return (
    <Editor
      path={path}
      defaultValue={file.content}
      language={file.language}
      theme={dark ? DARK : LIGHT}
      options={options}
      loading={<span className="text-sm text-muted">Loading the editor…</span>}
      wrapperProps={{ "data-testid": "code-editor" }}
    />
  );
}
