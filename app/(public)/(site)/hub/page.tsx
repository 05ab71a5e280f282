import { Globe } from "lucide-react";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export const metadata = { title: "Hub" };

export default function HubPage() {
  return (
    <>
      <PageHeader
        title="Model hub"
        description="Public models shared by the community: search, star, fork and use them in the studio."
      />
      <EmptyState
        icon={Globe}
        title="No public models yet"
        action={
          <Link href="/docs/api#tag/hub" className={buttonClass("secondary")}>
            Hub API
          </Link>
        }
      >
        Models published from the studio will be listed here for everyone, signed in or not.
      </EmptyState>
    </>
  );
}
