import type { Metadata } from "next";
import { EvaluationPage } from "@/components/evaluations/evaluation-page";

type Params = { params: Promise<{ id: string }> };

export const metadata: Metadata = { title: "Evaluation" };

export default async function EvaluationRoute({ params }: Params) {
  const { id } = await params;
  return <EvaluationPage evaluationId={id} />;
}
