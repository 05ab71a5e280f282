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
      Scalar.createApiReference("#app", {
        url: "/api/v1/openapi.json",
        withDefaultFonts: false,
        hideClientButton: false,
        metaData: { title: "Layerline API" },
      });
    </script>
  </body>
</html>`;

export function GET() {
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
