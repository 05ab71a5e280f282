import { AuditsPage } from "@/components/audits/audits-page";

export const metadata = { title: "Audits" };

export default function AuditsRoute() {
  return <AuditsPage />;
}
