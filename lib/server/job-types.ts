/**
 * Every job type of the application, imported for its side effect (`defineJobType` registers it).
 * jobs/ knows no job type: the app (app.ts), the server start (startup.ts), `npm run worker` and the
 * tests import this list, and the in-process runner (ensureInProcessRunner) refuses to start until it
 * has been loaded, so a job type missing here is never run.
 *
 * Add one line per capability, e.g.:
 *   import "./modules/codegen/codegen-job";
 */
import "./modules/codegen/codegen-job";
import "./modules/datasets/dataset-jobs";
import "./modules/evaluations/evaluate-job";
import "./modules/training/dispatch";
import { jobTypesRegistered } from "./jobs/runner";

jobTypesRegistered();
