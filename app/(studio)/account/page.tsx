import { ApiKeysCard } from "@/components/account/api-keys-card";
import { CreditsCard } from "@/components/account/credits-card";
import { PlanCard } from "@/components/account/plan-card";
import { PageHeader } from "@/components/ui/page-header";

export const metadata = { title: "Account" };

export default function AccountPage() {
  return (
    <div className="max-w-5xl">
      <PageHeader title="Account" description="Your plan, credits and personal API keys." />
      <div className="space-y-6">
        <ApiKeysCard />
        <div className="grid gap-6 lg:grid-cols-2">
          <PlanCard />
          <CreditsCard />
        </div>
      </div>
    </div>
  );
}
