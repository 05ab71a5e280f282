import { cn } from "@/components/ui/cn";

/**
 * Typography for a rendered model card (the project has no typography plugin: descendant variants).
 * Code blocks wrap instead of scrolling: a scrolling region needs a tabindex for keyboard users,
 * which sanitised HTML cannot carry.
 */
const PROSE = [
  "min-w-0 break-words text-sm leading-relaxed",
  "[&>*:first-child]:mt-0 [&>*:last-child]:mb-0",
  "[&_h1]:mt-6 [&_h1]:mb-3 [&_h1]:text-xl [&_h1]:font-semibold",
  "[&_h2]:mt-6 [&_h2]:mb-2 [&_h2]:border-b [&_h2]:border-border [&_h2]:pb-1 [&_h2]:text-lg [&_h2]:font-semibold",
  "[&_h3]:mt-5 [&_h3]:mb-2 [&_h3]:font-semibold [&_h4]:mt-4 [&_h4]:mb-1 [&_h4]:font-semibold",
  "[&_p]:my-3 [&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:my-1",
  "[&_a]:text-accent [&_a]:underline [&_strong]:font-semibold",
  "[&_code]:rounded [&_code]:bg-panel-2 [&_code]:px-1 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.85em]",
  "[&_pre]:my-3 [&_pre]:whitespace-pre-wrap [&_pre]:[overflow-wrap:anywhere] [&_pre]:rounded-md [&_pre]:border [&_pre]:border-border [&_pre]:bg-panel-2 [&_pre]:p-3",
  "[&_pre_code]:bg-transparent [&_pre_code]:p-0",
  "[&_table]:my-3 [&_table]:border-collapse [&_th]:border [&_th]:border-border [&_th]:bg-panel-2 [&_th]:px-3 [&_th]:py-1.5 [&_th]:text-left",
  "[&_td]:border [&_td]:border-border [&_td]:px-3 [&_td]:py-1.5 [&_td]:tabular-nums",
  "[&_blockquote]:my-3 [&_blockquote]:border-l-4 [&_blockquote]:border-border [&_blockquote]:pl-4 [&_blockquote]:text-muted",
  "[&_hr]:my-6 [&_hr]:border-border [&_img]:max-w-full",
].join(" ");

/**
 * A model card as HTML. `html` must come from renderModelCard (lib/server/modules/hub/model-card.ts):
 * raw HTML dropped, then an allow-list sanitiser. Nothing else is ever passed here.
 */
export function MarkdownBody({ html, className }: { html: string; className?: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by renderModelCard (see above)
  return <div className={cn(PROSE, className)} dangerouslySetInnerHTML={{ __html: html }} />;
}
