/**
 * Interactive API reference rendered from the live OpenAPI document (Scalar, served from
 * node_modules: ./standalone). Self-hosted and offline: nothing on this page reaches a hosted
 * service (no AI chat, no hosted API client, no telemetry); "Test request" runs in the page against
 * this server.
 *
 * Fast first paint (issue 25; bench/api-reference-bench.ts): Scalar's bundle (3.5 MB) and its
 * processing of the whole document take seconds on a busy machine, so the page does not wait for
 * them. An inline script fetches the document once, draws an outline at once (the navigation by
 * tag and every operation's heading, method, path and description), and hands the same parsed
 * document to Scalar (`content`, no second request); Scalar's bundle downloads in parallel (preloaded,
 * cached for a year under its version), runs once the outline is painted, and replaces the outline
 * once it has drawn the first operation. Without JavaScript or if the bundle fails, the outline stays.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

export const dynamic = "force-static";

/** The bundle's URL carries its version, so browsers may cache it for good (./standalone). */
function bundleUrl(): string {
  try {
    const pkg = JSON.parse(
      readFileSync(path.join(process.cwd(), "node_modules/@scalar/api-reference/package.json"), "utf8"),
    ) as { version?: string };
    return `/docs/api/standalone?v=${encodeURIComponent(pkg.version ?? "0")}`;
  } catch {
    return "/docs/api/standalone";
  }
}

const DOCUMENT_URL = "/api/v1/openapi.json";

const SCALAR_CONFIG = {
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: "never",
  metaData: { title: "Layerline API" },
};

const STYLE = `
  :root { color-scheme: light dark; --bg: #fff; --fg: #1c1e21; --muted: #5f6368; --line: #e3e5e8; --panel: #f7f8fa;
    --get: #0f7b3f; --post: #1d5fd1; --put: #a15c00; --patch: #7a4fd1; --delete: #c62828; }
  @media (prefers-color-scheme: dark) { :root { --bg: #0f1115; --fg: #e8eaed; --muted: #a0a6ad; --line: #2a2e35;
    --panel: #161a20; --get: #5fd08f; --post: #7fb0ff; --put: #f3b25c; --patch: #b79cff; --delete: #ff8a80; } }
  body { margin: 0; background: var(--bg); color: var(--fg);
    font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  #outline { position: fixed; inset: 0; z-index: 10; display: grid; grid-template-columns: 18rem 1fr; background: var(--bg); }
  #outline[hidden] { display: none; }
  .ol-nav { overflow-y: auto; border-right: 1px solid var(--line); background: var(--panel); padding: 16px 12px; }
  .ol-nav .title { font-weight: 600; font-size: 15px; margin: 0 8px 12px; }
  .ol-nav h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 14px 8px 4px; }
  .ol-nav ul { list-style: none; margin: 0; padding: 0; }
  .ol-nav a { display: flex; gap: 6px; align-items: baseline; padding: 3px 8px; border-radius: 6px; color: var(--fg);
    text-decoration: none; font-size: 13px; }
  .ol-nav a:hover { background: var(--line); }
  .m { font: 600 10px/1.6 ui-monospace, SFMono-Regular, Menlo, monospace; text-transform: uppercase; min-width: 3.4em; }
  .m-get { color: var(--get); } .m-post { color: var(--post); } .m-put { color: var(--put); }
  .m-patch { color: var(--patch); } .m-delete { color: var(--delete); }
  .ol-main { overflow-y: auto; padding: 32px 48px 64px; }
  .ol-main > * { max-width: 52rem; }
  .ol-main h1 { font-size: 28px; margin: 0 0 8px; }
  .ol-main h2 { font-size: 20px; margin: 40px 0 4px; padding-top: 16px; border-top: 1px solid var(--line); }
  .ol-main h3 { font-size: 16px; margin: 24px 0 4px; }
  .ol-main p { margin: 4px 0; color: var(--muted); white-space: pre-line; }
  .ol-main code { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--fg); }
  .ol-status { font-size: 12px; color: var(--muted); }
  @media (max-width: 760px) { #outline { grid-template-columns: 1fr; } .ol-nav { display: none; } .ol-main { padding: 20px; } }
`;

/** Draws the outline from the document, then mounts Scalar (from `bundle`) with the same document. */
const script = (bundle: string) => `
(function () {
  var outline = document.getElementById("outline");
  var nav = document.getElementById("outline-nav");
  var main = document.getElementById("outline-main");
  var status = document.getElementById("outline-status");
  var first = null;
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }
  function draw(doc) {
    var methods = ["get", "post", "put", "patch", "delete"];
    var byTag = {};
    var order = (doc.tags || []).map(function (t) { return t.name; });
    var tagText = {};
    (doc.tags || []).forEach(function (t) { tagText[t.name] = t.description || ""; });
    Object.keys(doc.paths || {}).forEach(function (p) {
      methods.forEach(function (m) {
        var op = doc.paths[p][m];
        if (!op) return;
        var tag = (op.tags && op.tags[0]) || "Other";
        if (order.indexOf(tag) < 0) order.push(tag);
        (byTag[tag] = byTag[tag] || []).push({ path: p, method: m, op: op });
      });
    });
    var info = doc.info || {};
    main.textContent = "";
    main.appendChild(el("h1", {}, info.title || "API reference"));
    if (info.description) main.appendChild(el("p", {}, info.description));
    main.appendChild(status);
    var n = 0;
    order.forEach(function (tag) {
      var ops = byTag[tag];
      if (!ops) return;
      nav.appendChild(el("h2", {}, tag));
      var list = el("ul", {});
      nav.appendChild(list);
      main.appendChild(el("h2", {}, tag));
      if (tagText[tag]) main.appendChild(el("p", {}, tagText[tag]));
      ops.forEach(function (o) {
        var id = "op-" + (n++);
        var title = o.op.summary || o.method.toUpperCase() + " " + o.path;
        if (!first) first = title;
        var link = el("a", { href: "#" + id });
        link.appendChild(el("span", { class: "m m-" + o.method }, o.method));
        link.appendChild(el("span", {}, title));
        var item = el("li", {});
        item.appendChild(link);
        list.appendChild(item);
        var section = el("section", { id: id });
        section.appendChild(el("h3", {}, title));
        var line = el("p", {});
        line.appendChild(el("code", {}, o.method.toUpperCase() + " " + o.path));
        section.appendChild(line);
        if (o.op.description) section.appendChild(el("p", {}, o.op.description));
        main.appendChild(section);
      });
    });
  }
  /**
   * Hides the outline once Scalar shows the first operation's heading: a light poll (a mutation
   * observer on Scalar's busy tree slowed its first render by half).
   */
  function swapWhenReady() {
    var app = document.getElementById("app");
    var timer = setInterval(function () {
      var hs = app.querySelectorAll("h1, h2, h3, h4");
      for (var i = 0; i < hs.length; i++) {
        if (hs[i].textContent.trim() === first) {
          clearInterval(timer);
          outline.hidden = true;
          return;
        }
      }
    }, 250);
  }
  var doc = fetch(${JSON.stringify(DOCUMENT_URL)}, { credentials: "same-origin" }).then(function (r) {
    if (!r.ok) throw new Error("The API document answered " + r.status + ".");
    return r.json();
  });
  function mount(d) {
    status.textContent = "Loading the interactive reference (Test request)…";
    swapWhenReady();
    var config = ${JSON.stringify(SCALAR_CONFIG)};
    config.content = d;
    window.Scalar.createApiReference("#app", config);
  }
  function failed() {
    status.textContent = "The interactive reference could not be loaded; this outline lists every operation.";
  }
  /**
   * The bundle runs for seconds on a busy machine: it is started only once the outline has been
   * painted (two frames after drawing), from the preloaded copy.
   */
  function loadBundle(d) {
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        var script = document.createElement("script");
        script.src = ${JSON.stringify(bundle)};
        script.onload = function () { mount(d); };
        script.onerror = failed;
        document.body.appendChild(script);
      });
    });
  }
  doc.then(function (d) { draw(d); loadBundle(d); }).catch(function (err) {
    status.textContent = "The API document could not be read: " + err.message;
  });
})();
`;

function page(bundle: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference · Layerline</title>
    <link rel="preload" href="${DOCUMENT_URL}" as="fetch" crossorigin="anonymous" />
    <link rel="preload" href="${bundle}" as="script" />
    <style>${STYLE}</style>
  </head>
  <body>
    <div id="outline">
      <nav id="outline-nav" class="ol-nav" aria-label="API operations"><p class="title">Layerline API</p></nav>
      <main id="outline-main" class="ol-main">
        <h1>Layerline API</h1>
        <p class="ol-status" id="outline-status" role="status">Loading the API document…</p>
      </main>
    </div>
    <div id="app"></div>
    <script>${script(bundle)}</script>
  </body>
</html>`;
}

export function GET() {
  return new Response(page(bundleUrl()), { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
