import type { LucideIcon } from "lucide-react";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

/**
 * An area whose studio pages are not built yet: says what it will hold and where its API is
 * documented, instead of a blank page.
 */
export function AreaIntro({
  title,
  description,
  icon,
  emptyTitle,
  emptyText,
  apiTag,
}: {
  title: string;
  description: string;
  icon: LucideIcon;
  emptyTitle: string;
  emptyText: string;
  apiTag: string;
}) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <EmptyState
        icon={icon}
        title={emptyTitle}
        action={
          <Link href={`/docs/api#tag/${apiTag}`} className={buttonClass("secondary")}>
            Read the {title.toLowerCase()} API
          </Link>
        }
      >
        {emptyText}
      </EmptyState>
    </>
  );
}
