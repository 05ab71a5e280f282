/**
 * Every job type of the application, imported for its side effect (`defineJobType` registers it).
 * Runners take the types registered in their process: the in-process runner (ensureInProcessRunner)
 * and `npm run worker` both import this module, so a job type missing here is never run.
 *
 * Add one line per capability, e.g.:
 *   import "../services/codegen-job";
 */
import "../services/codegen-job";
import "../services/datasets/dataset-jobs";
import "../services/evaluations/evaluate-job";
import "../services/training/dispatch";
