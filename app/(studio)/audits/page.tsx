import { ClipboardCheck } from "lucide-react";
import { AreaIntro } from "@/components/shell/coming-area";

export const metadata = { title: "Audits" };

export default function AuditsPage() {
  return (
    <AreaIntro
      title="Audits"
      description="Workload audits and retraining candidates"
      icon={ClipboardCheck}
      emptyTitle="No audits yet"
      emptyText="Audits run by the command-line client are published here with their reports and candidates."
      apiTag="audits"
    />
  );
}
