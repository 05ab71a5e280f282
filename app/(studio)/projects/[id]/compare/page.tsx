import { CompareView } from "@/components/versions/compare-view";

export const metadata = { title: "Compare versions" };

export default async function CompareVersionsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ from?: string; to?: string }>;
}) {
  const [{ id }, { from, to }] = await Promise.all([params, searchParams]);
  return <CompareView projectId={id} from={from ?? null} to={to ?? null} />;
}
