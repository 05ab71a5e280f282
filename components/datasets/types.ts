import type { Schemas } from "@/lib/api/client";

export type Dataset = Schemas["Dataset"];
export type DatasetVersion = Schemas["DatasetVersion"];
export type ColumnProfile = Schemas["DatasetColumnProfile"];
export type PiiReport = NonNullable<Schemas["PiiReport"]>;

/** What every tab of the dataset page is given. */
export interface DatasetTabProps {
  dataset: Dataset;
  /** The version being looked at (the current one unless another was picked), with its profile. */
  version: DatasetVersion;
}
