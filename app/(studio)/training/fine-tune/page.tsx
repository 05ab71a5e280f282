import { Suspense } from "react";
import { FineTuneWizard } from "@/components/fine-tune/fine-tune-wizard";
import { PageHeader } from "@/components/ui/page-header";

export const metadata = { title: "Fine-tune a base model" };

export default function FineTunePage() {
  return (
    <>
      <PageHeader
        title="Fine-tune a base model"
        description="Start from pretrained weights on your dataset: a training job that learns faster from less data."
      />
      <Suspense>
        <FineTuneWizard />
      </Suspense>
    </>
  );
}
