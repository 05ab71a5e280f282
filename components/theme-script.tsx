/** Applies the saved (or system) theme before first paint, so pages never flash the wrong colours. */
const script = `(() => { try {
  const saved = localStorage.getItem("layerline-theme");
  const dark = saved ? saved === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.classList.toggle("dark", dark);
} catch {} })();`;

export function ThemeScript() {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script, no user input
  return <script dangerouslySetInnerHTML={{ __html: script }} />;
}
