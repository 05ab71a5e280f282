import { useQuery } from "@tanstack/react-query";
import { useVersionArtifacts } from "./queries";

/** One picture with its true class and the model's prediction (a thumbnail data: URL). */
export interface SamplePredictionView {
  image: string;
  actual: string;
  predicted: string;
  confidence: number;
}

/** The artifact an image model's version carries its sample predictions in (written when pushed from a job). */
export const SAMPLES_ARTIFACT = "samples.json";

/**
 * An image model version's sample predictions (its samples.json artifact, downloaded with the
 * session), or an empty list when it has none.
 */
export function useVersionSamples(versionId: string) {
  const artifacts = useVersionArtifacts(versionId);
  const file = artifacts.data?.find((a) => a.name === SAMPLES_ARTIFACT && a.state === "complete") ?? null;
  return useQuery({
    queryKey: ["registry", "version-samples", versionId, file?.id ?? null],
    enabled: file !== null,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async (): Promise<SamplePredictionView[]> => {
      if (!file) return [];
      const url = `/api/v1/model-versions/${encodeURIComponent(versionId)}/artifacts/${encodeURIComponent(file.id)}/download`;
      const res = await fetch(url, { credentials: "same-origin" });
      if (!res.ok) return [];
      const body = (await res.json()) as { samples?: SamplePredictionView[] };
      return Array.isArray(body.samples) ? body.samples : [];
    },
  });
}
