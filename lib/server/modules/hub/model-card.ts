import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

/**
 * Model cards are markdown written by any user and shown on public pages, so rendering is two
 * independent guards: remark-rehype drops raw HTML (it never passes `allowDangerousHtml`), then
 * rehype-sanitize applies GitHub's allow-list (no scripts, styles, iframes or event handlers; link
 * and image URLs limited to http(s), mailto and relative ones, so `javascript:`, `vbscript:` and
 * `data:` URLs are removed whatever their case or character encoding). Links to other sites get
 * `rel="nofollow noopener noreferrer"`.
 */
const schema = {
  ...defaultSchema,
  protocols: {
    ...defaultSchema.protocols,
    href: ["http", "https", "mailto"],
    src: ["http", "https"],
  },
};

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeSanitize, schema)
  .use(() => (tree) => addRel(tree as HastNode))
  .use(rehypeStringify)
  .freeze();

interface HastNode {
  type: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

function addRel(node: HastNode): void {
  if (node.type === "element" && node.tagName === "a" && node.properties) {
    const href = node.properties.href;
    if (typeof href === "string" && /^(https?:)?\/\//i.test(href))
      node.properties.rel = ["nofollow", "noopener", "noreferrer"];
  }
  for (const child of node.children ?? []) addRel(child);
}

/** Renders a model card's markdown as safe HTML (raw HTML stripped, URLs and attributes allow-listed). */
export function renderModelCard(markdown: string): string {
  return String(processor.processSync(markdown));
}
