/**
 * Plans as data: every feature flag and limit an action checks lives here, not in scattered ifs.
 * Exposed to users through GET /users/me/entitlements and the storage quota route.
 */
export type PlanId = "free" | "pro" | "team";

export interface PlanDefinition {
  id: PlanId;
  name: string;
  features: {
    gpu_training: boolean;
    distributed_training: boolean;
    private_hub_models: boolean;
    openai_compatible_endpoints: boolean;
    audit_sharing: boolean;
  };
  limits: {
    /** Every byte the account stores: datasets, checkpoints, job artifacts, hub files, registry artifacts. */
    storage_bytes: number;
    upload_file_bytes: number;
    hub_file_bytes: number;
    /** Largest checkpoint a training job may upload (413 above it). */
    checkpoint_bytes: number;
    /** Checkpoints a job keeps besides its best: the most recent epochs; older ones are deleted. */
    checkpoints_kept_per_job: number;
    projects: number;
    deployments: number;
    concurrent_training_jobs: number;
    /** Wall-clock seconds one training job may run (all attempts together) before it ends timed_out. */
    training_seconds_per_job: number;
    api_keys: number;
    requests_per_minute: number;
  };
  /** Credits granted when the account is created and each month after. */
  monthly_credits: number;
}

const MB = 1024 * 1024;
const GB = 1024 * MB;

export const PLANS: Record<PlanId, PlanDefinition> = {
  free: {
    id: "free",
    name: "Free",
    features: {
      gpu_training: false,
      distributed_training: false,
      private_hub_models: false,
      openai_compatible_endpoints: true,
      audit_sharing: true,
    },
    limits: {
      storage_bytes: 5 * GB,
      upload_file_bytes: 200 * MB,
      hub_file_bytes: 200 * MB,
      checkpoint_bytes: 256 * MB,
      checkpoints_kept_per_job: 3,
      projects: 100,
      deployments: 3,
      concurrent_training_jobs: 2,
      training_seconds_per_job: 3600,
      api_keys: 10,
      requests_per_minute: 600,
    },
    monthly_credits: 100,
  },
  pro: {
    id: "pro",
    name: "Pro",
    features: {
      gpu_training: true,
      distributed_training: false,
      private_hub_models: true,
      openai_compatible_endpoints: true,
      audit_sharing: true,
    },
    limits: {
      storage_bytes: 100 * GB,
      upload_file_bytes: 500 * MB,
      hub_file_bytes: 500 * MB,
      checkpoint_bytes: 1 * GB,
      checkpoints_kept_per_job: 3,
      projects: 1000,
      deployments: 20,
      concurrent_training_jobs: 8,
      training_seconds_per_job: 86400,
      api_keys: 50,
      requests_per_minute: 3000,
    },
    monthly_credits: 2000,
  },
  team: {
    id: "team",
    name: "Team",
    features: {
      gpu_training: true,
      distributed_training: true,
      private_hub_models: true,
      openai_compatible_endpoints: true,
      audit_sharing: true,
    },
    limits: {
      storage_bytes: 1024 * GB,
      upload_file_bytes: 500 * MB,
      hub_file_bytes: 500 * MB,
      checkpoint_bytes: 2 * GB,
      checkpoints_kept_per_job: 3,
      projects: 10000,
      deployments: 100,
      concurrent_training_jobs: 32,
      training_seconds_per_job: 604800,
      api_keys: 200,
      requests_per_minute: 10000,
    },
    monthly_credits: 10000,
  },
};

export function planOf(id: string): PlanDefinition {
  return PLANS[id as PlanId] ?? PLANS.free;
}

/** Compute seconds that one credit buys on this service's CPU runners (training, evaluation). */
export const COMPUTE_SECONDS_PER_CREDIT = 60;
