import { describe, expect, it } from "vitest";
import { renderModelCard } from "./model-card";

/** Every vector must come out inert: no executable tag, no handler attribute, no script URL. */
function expectInert(html: string) {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<(iframe|object|embed|style|svg|math|form|input|base|meta|link)\b/i);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/(href|src)\s*=\s*"\s*(javascript|vbscript|data):/i);
}

describe("renderModelCard", () => {
  it("renders ordinary markdown: headings, emphasis, tables, code and safe links", () => {
    const html = renderModelCard(
      "# Iris\n\nA **small** model.\n\n| metric | value |\n|---|---|\n| accuracy | 0.97 |\n\n" +
        "```bash\ncurl -X POST https://example.com\n```\n\n[docs](https://example.com/docs) and [local](/hub)",
    );
    expect(html).toContain("<h1>Iris</h1>");
    expect(html).toContain("<strong>small</strong>");
    expect(html).toContain("<table>");
    expect(html).toContain("<td>0.97</td>");
    expect(html).toContain("<code");
    expect(html).toContain('href="https://example.com/docs"');
    expect(html).toContain('rel="nofollow noopener noreferrer"');
    expect(html).toContain('href="/hub"');
  });

  it("strips raw HTML: script tags, inline handlers, iframes and styles", () => {
    const vectors = [
      "<script>alert(1)</script>",
      "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
      '<img src="x" onerror="alert(1)">',
      '<a href="#" onclick="alert(1)">click</a>',
      '<iframe src="https://evil.example"></iframe>',
      "<svg onload=alert(1)>",
      "<style>body{display:none}</style>",
      '<div style="background:url(javascript:alert(1))">x</div>',
      "<details open ontoggle=alert(1)>",
      "Text <b onmouseover=alert(1)>bold</b> inline",
    ];
    for (const v of vectors) {
      const html = renderModelCard(v);
      expectInert(html);
      expect(html).not.toContain("alert(1)</script>");
    }
    // Raw HTML does not pass even as a harmless tag: it is dropped, not rendered.
    expect(renderModelCard("<b>bold</b>")).not.toContain("<b>");
  });

  it("removes javascript:, vbscript: and data: URLs in links and images, also encoded", () => {
    const vectors = [
      "[x](javascript:alert(1))",
      "[x](JaVaScRiPt:alert(1))",
      "[x](javascript&colon;alert(1))",
      "[x](&#106;avascript:alert(1))",
      "[x](&#x6A;&#x61;vascript:alert(1))",
      "[x](java%0ascript:alert(1))",
      "[x]( javascript:alert(1))",
      "[x](<javascript:alert(1)>)",
      "[x](vbscript:msgbox(1))",
      "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
      "![img](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
      "![img](javascript:alert(1))",
      "[ref]\n\n[ref]: javascript:alert(1)",
      "<javascript:alert(1)>",
    ];
    for (const v of vectors) {
      const html = renderModelCard(v);
      expectInert(html);
      expect(html.toLowerCase()).not.toMatch(/href="[^"]*script:/);
      expect(html.toLowerCase()).not.toMatch(/src="[^"]*(script|data):/);
    }
  });

  it("escapes text so that markup in it stays text", () => {
    const html = renderModelCard("Use `<script>` carefully: 1 < 2 & 3 > 2");
    expect(html).toContain("<code>&#x3C;script></code>");
    expect(html).not.toMatch(/<script/i);
  });
});
