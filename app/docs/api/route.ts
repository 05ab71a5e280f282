/** Interactive API reference rendered from the live OpenAPI document (Scalar, served from node_modules). */
export const dynamic = "force-static";

const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference · Layerline</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/api/standalone"></script>
    <script>
      // Self-hosted and offline: nothing on this page reaches a hosted service (no AI chat, no hosted
      // API client, no telemetry); "Test request" runs in the page against this server.
      Scalar.createApiReference("#app", {
        url: "/api/v1/openapi.json",
        withDefaultFonts: false,
        hideClientButton: true,
        telemetry: false,
        agent: { disabled: true },
        showDeveloperTools: "never",
        metaData: { title: "Layerline API" },
      });
    </script>
  </body>
</html>`;

export function GET() {
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
