/**
 * What a failed program's job says about the failure. The job's `reason` (in the job, its status
 * history and its stream, seen wherever the job is shown) is one short line: the exception's last
 * line (`ValueError: …`, `Error: …`) with every file path cut to its file name, at most
 * MAX_REASON_CHARS. The traceback (the end of the program's stderr, with the job's own directory
 * shown as `.`) goes to the job's log, which only its owner reads.
 */
export const MAX_REASON_CHARS = 300;
/** How much of stderr the job's log keeps (the upload API's limit for a log line is 10,000). */
export const MAX_LOG_CHARS = 8000;

/** A line that names an exception: `ValueError: …`, `torch.cuda.OutOfMemoryError`, `Error: …`. */
const EXCEPTION_LINE =
  /^(?:[A-Za-z_]\w*\.)*(?:[A-Za-z_]\w*)?(?:Error|Exception|Exit|Interrupt|Failure|Warning)\b(?::.*)?$/;
/** Absolute paths (POSIX and Windows); segments exclude separators, so matching never backtracks. */
const PATH = /(?<![\w.])(?:[A-Za-z]:\\|\/)(?:[^\s"'`:,;()[\]{}<>\\/]+[\\/])*([^\s"'`:,;()[\]{}<>\\/]*)/g;

/** Every absolute path in `text` cut to its last component (`/srv/data/jobs/x/train.py` → `train.py`). */
export function stripPaths(text: string): string {
  return text.replace(PATH, (whole, last: string) => (last ? last : whole === "/" ? "/" : "…"));
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The line of stderr that says what went wrong: the last exception line, else the last line. */
export function failureLine(stderr: string): string | null {
  const lines = stderr.split(/\r?\n/).filter((l) => l.trim());
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (!/^\s/.test(line) && EXCEPTION_LINE.test(line.trim())) return line.trim();
  }
  const last = lines.at(-1)?.trim();
  return last ? last : null;
}

export interface FailureSummary {
  /** The job's reason: short, one line, no traceback and no paths. */
  reason: string;
  /** The end of stderr for the owner's log, or null when there was none. */
  log: string | null;
}

/**
 * Summarises a program that exited unsuccessfully. `workDir` (the job's directory) is shown as `.`
 * in the log.
 */
export function summarizeFailure(
  stderrTail: string,
  exit: { exitCode: number | null; signal: string | null },
  workDir?: string,
): FailureSummary {
  const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.exitCode}`;
  const head = `The training program exited with ${how}`;
  const line = failureLine(stderrTail);
  const detail = line ? stripPaths(line).replace(/\s+/g, " ") : null;
  const reason = detail ? clip(`${head}: ${detail}`, MAX_REASON_CHARS) : `${head}.`;
  let log = stderrTail.trim();
  if (workDir) log = log.replaceAll(workDir, ".");
  return { reason, log: log ? clip(log.slice(-MAX_LOG_CHARS), MAX_LOG_CHARS) : null };
}
