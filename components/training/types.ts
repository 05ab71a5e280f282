import type { Schemas } from "@/lib/api/client";

export type TrainingJob = Schemas["TrainingJob"];
export type MetricsPage = Schemas["MetricsPage"];
export type MetricPoint = Schemas["MetricPoint"];
export type LogLine = Schemas["TrainingLogLine"];
export type LogsPage = Schemas["TrainingLogsPage"];
export type Checkpoint = Schemas["TrainingCheckpoint"];
export type DatasetFit = Schemas["TrainingDatasetFit"];
export type TrainingRuntime = Schemas["TrainingRuntime"];
