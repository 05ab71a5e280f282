/**
 * The sandbox every program the service runs for a user goes through (training, fine-tuning, the
 * catalog's weight checks): Debian's bubblewrap (`bwrap`) with every namespace unshared (user, PID,
 * network, IPC, UTS, cgroup), a read-only system (/usr and the few /etc files a dynamic linker,
 * Python and torchrun read), the job's own directory (its inputs read-only, its outputs writable),
 * a fresh /proc and /dev, a small private /tmp, no environment but the one given, an unprivileged
 * uid, and resource limits (prlimit: CPU time, address space, file size, processes). Nothing else of
 * the machine is there: not DATA_DIR, not other jobs, not the server's environment or processes, no
 * network (its only way out is its job's channel, job-channel.ts: a Unix socket in the job's directory).
 * Serving's model probe (serving/model-probe.ts) runs in it too, with the app's node_modules read-only.
 *
 * A worker running as root runs bwrap as root (its mounts made with root's rights, no user namespace)
 * and the program through setpriv as LAYERLINE_SANDBOX_UID:GID (default 65534:65534, nobody), every
 * capability dropped: a real unprivileged user of the machine, not only inside a namespace. A worker
 * running as an ordinary user starts bwrap as itself with a user namespace (the program is uid 65534
 * inside it, the worker's user outside).
 *
 *   LAYERLINE_SANDBOX=off            run programs without the sandbox (development machines without
 *                                    bubblewrap; refused by nothing, warned about loudly)
 *   LAYERLINE_BWRAP                  the bwrap binary (default /usr/bin/bwrap)
 *   LAYERLINE_SANDBOX_UID / _GID     the program's uid and gid when the worker is root (default 65534)
 *   LAYERLINE_SANDBOX_RO_PATHS       more read-only paths for the program, colon-separated (a Python
 *                                    virtual environment outside /usr, CUDA libraries…)
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type PlanDefinition, planOf } from "../../../plans";

const PRLIMIT = "/usr/bin/prlimit";
const SETPRIV = "/usr/bin/setpriv";
const NOBODY = 65534;
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** Whether programs run in the sandbox: on unless LAYERLINE_SANDBOX is off (or 0, false, no). */
export function sandboxEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env.LAYERLINE_SANDBOX ?? "").trim().toLowerCase();
  return !["off", "0", "false", "no"].includes(value);
}

export function bwrapPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.LAYERLINE_BWRAP?.trim() || "/usr/bin/bwrap";
}

/** The limits one program runs under (each process of it: prlimit's limits are per process). */
export interface ResourceLimits {
  /** RLIMIT_CPU: CPU seconds (all threads). */
  cpuSeconds: number;
  /** RLIMIT_AS: virtual memory. */
  addressSpaceBytes: number;
  /** RLIMIT_FSIZE: the largest file it may write. */
  fileSizeBytes: number;
  /**
   * RLIMIT_NPROC: processes and threads of its user (with a root worker: every sandboxed program's,
   * they share the uid; otherwise per job, its user namespace's).
   */
  processes: number;
  /** Size of its private /tmp (memory). */
  tmpBytes: number;
}

/** Memory and processes per plan (the plans' own limits: time per job, storage, are in plans.ts). */
const PLAN_SANDBOX: Record<string, { addressSpaceBytes: number; processes: number }> = {
  free: { addressSpaceBytes: 16 * GiB, processes: 512 },
  pro: { addressSpaceBytes: 64 * GiB, processes: 2048 },
  team: { addressSpaceBytes: 256 * GiB, processes: 8192 },
};

/**
 * A plan's limits for a program allowed `timeLimitMs` of wall-clock time: CPU time for every core
 * of the machine over that time (the wall-clock limit is the real one; this stops a runaway after
 * it), the plan's address space and processes, files no larger than the plan's storage.
 */
export function sandboxLimits(
  plan: PlanDefinition | string = "free",
  timeLimitMs = 3_600_000,
): ResourceLimits {
  const p = typeof plan === "string" ? planOf(plan) : plan;
  const own = PLAN_SANDBOX[p.id] ?? PLAN_SANDBOX.free;
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  return {
    cpuSeconds: Math.ceil((Math.max(1000, timeLimitMs) / 1000) * Math.max(1, cores)) + 60,
    addressSpaceBytes: own.addressSpaceBytes,
    fileSizeBytes: p.limits.storage_bytes,
    processes: own.processes,
    tmpBytes: 256 * MiB,
  };
}

/** Who the program is. */
export function sandboxIdentity(env: NodeJS.ProcessEnv = process.env): {
  uid: number;
  gid: number;
  /** The worker is root: the program becomes uid:gid (setpriv inside bwrap), a real unprivileged user. */
  dropFromRoot: boolean;
} {
  const id = (value: string | undefined) => {
    const n = Number.parseInt(value ?? "", 10);
    return Number.isInteger(n) && n > 0 ? n : NOBODY;
  };
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  return { uid: id(env.LAYERLINE_SANDBOX_UID), gid: id(env.LAYERLINE_SANDBOX_GID), dropFromRoot: root };
}

export interface SandboxSpec {
  /** The job's directory: visible read-only at its own path (its inputs). */
  jobDir: string;
  /** Directories inside jobDir the program may write (checkpoints, export…). */
  writable: string[];
  /** More read-only paths, visible at their own paths (must be readable by the program's uid). */
  readOnly?: string[];
  limits: ResourceLimits;
}

/** What the dynamic linker, Python, Node and torchrun (localhost rendezvous) read from /etc. */
const ETC_FILES = [
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "alternatives",
  "localtime",
  "passwd",
  "group",
  "nsswitch.conf",
  "hosts",
  "host.conf",
  "gai.conf",
];

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** An install prefix outside /usr that a program needs (a virtual environment, a Node.js install). */
function prefixOutsideUsr(binary: string): string | null {
  let real = binary;
  try {
    real = fs.realpathSync(binary);
  } catch {
    // not there: the run will say so
  }
  if (real.startsWith("/usr/") || real.startsWith("/bin/") || real.startsWith("/lib")) return null;
  // …/bin/python3 → …
  return path.dirname(path.dirname(real));
}

/** Extra read-only paths: LAYERLINE_SANDBOX_RO_PATHS and the interpreter's prefix when outside /usr. */
export function extraReadOnly(command: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const configured = (env.LAYERLINE_SANDBOX_RO_PATHS ?? "")
    .split(":")
    .map((p) => p.trim())
    .filter((p) => p && path.isAbsolute(p));
  const prefix = path.isAbsolute(command) ? prefixOutsideUsr(command) : null;
  return [...configured, ...(prefix ? [prefix] : [])];
}

/**
 * The command line that runs `command args` in the sandbox. The environment of bwrap itself is only
 * PATH (it is visible to the program as /proc/1/environ); the program's own is `env`, set inside.
 */
export function sandboxCommand(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  spec: SandboxSpec,
): { command: string; args: string[]; env: Record<string, string> } {
  const who = sandboxIdentity();
  const a: string[] = [
    // As root: every namespace but the user one (bwrap would map the program to root); the program
    // gets its uid from setpriv. Otherwise: a user namespace too, the program uid:gid inside it.
    ...(who.dropFromRoot
      ? ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
      : ["--unshare-all", "--uid", String(who.uid), "--gid", String(who.gid)]),
    // A name /etc/hosts resolves (torchrun's rendezvous looks its host name up).
    "--hostname",
    "localhost",
    "--die-with-parent",
    "--new-session",
    "--clearenv",
    "--ro-bind",
    "/usr",
    "/usr",
  ];
  for (const top of ["bin", "sbin", "lib", "lib32", "lib64", "libx32"]) {
    const p = `/${top}`;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(p);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) a.push("--symlink", fs.readlinkSync(p), p);
    else a.push("--ro-bind", p, p);
  }
  a.push("--perms", "0755", "--dir", "/etc");
  for (const name of ETC_FILES) {
    const p = `/etc/${name}`;
    if (exists(p)) a.push("--ro-bind", p, p);
  }
  a.push("--dev", "/dev", "--proc", "/proc");
  a.push("--size", String(spec.limits.tmpBytes), "--perms", "1777", "--tmpfs", "/tmp");
  // GPUs, when the machine has NVIDIA's devices.
  for (const dev of fs.existsSync("/dev/nvidiactl") ? fs.readdirSync("/dev") : []) {
    if (dev.startsWith("nvidia")) a.push("--dev-bind", `/dev/${dev}`, `/dev/${dev}`);
  }
  // Bound from the machine (what is below them is theirs); /tmp is the sandbox's own tmpfs.
  const mounted = ["/usr", "/etc", "/dev", "/proc"];
  const made = new Set(["/", "/tmp", "/etc"]);
  const parents = (target: string) => {
    const chain: string[] = [];
    for (let dir = path.dirname(target); dir !== "/" && !made.has(dir); dir = path.dirname(dir)) {
      if (mounted.some((m) => dir.startsWith(`${m}/`))) break;
      chain.unshift(dir);
    }
    for (const dir of chain) {
      a.push("--perms", "0755", "--dir", dir);
      made.add(dir);
    }
  };
  const jobDir = path.resolve(spec.jobDir);
  for (const p of [...(spec.readOnly ?? []), ...extraReadOnly(command)]) {
    const target = path.resolve(p);
    if (mounted.some((m) => target === m || target.startsWith(`${m}/`))) continue;
    parents(target);
    a.push("--ro-bind", target, target);
    mounted.push(target);
  }
  parents(jobDir);
  a.push("--ro-bind", jobDir, jobDir);
  for (const w of spec.writable) {
    const target = path.resolve(w);
    if (!target.startsWith(`${jobDir}/`)) throw new Error(`A writable path must be inside the job: ${w}`);
    a.push("--bind", target, target);
  }
  a.push("--chdir", cwd);
  for (const [name, value] of Object.entries(env)) a.push("--setenv", name, value);
  if (who.dropFromRoot) a.push("--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID");
  const l = spec.limits;
  a.push(
    "--",
    ...(who.dropFromRoot
      ? [
          SETPRIV,
          `--reuid=${who.uid}`,
          `--regid=${who.gid}`,
          "--clear-groups",
          "--inh-caps=-all",
          "--bounding-set=-all",
          "--",
        ]
      : []),
    PRLIMIT,
    `--cpu=${Math.ceil(l.cpuSeconds)}`,
    `--as=${Math.floor(l.addressSpaceBytes)}`,
    `--fsize=${Math.floor(l.fileSizeBytes)}`,
    `--nproc=${Math.floor(l.processes)}`,
    "--core=0",
    "--",
    command,
    ...args,
  );
  return { command: bwrapPath(), args: a, env: { PATH: "/usr/bin:/bin" } };
}

/**
 * Makes the job's directory the program's: with a root worker, owned by the program's uid (it reads
 * its inputs and writes its outputs there). The worker (root) still reads and removes everything.
 */
export async function prepareJobDir(jobDir: string): Promise<void> {
  const who = sandboxIdentity();
  if (!who.dropFromRoot) return;
  const walk = async (p: string) => {
    await fsp.lchown(p, who.uid, who.gid);
    const stat = await fsp.lstat(p);
    if (!stat.isDirectory()) return;
    for (const name of await fsp.readdir(p)) await walk(path.join(p, name));
  };
  await walk(jobDir);
}

/** Gives a file (the job's channel socket) to the program's uid. */
export async function giveToProgram(file: string): Promise<void> {
  const who = sandboxIdentity();
  if (who.dropFromRoot) await fsp.lchown(file, who.uid, who.gid);
  await fsp.chmod(file, 0o600);
}

/**
 * Copies `file` into `dir` unless it is already inside `jobDir` (the program sees only its job's
 * directory); returns the path to use.
 */
export async function stageInput(file: string, jobDir: string, dir: string): Promise<string> {
  const resolved = path.resolve(file);
  const job = path.resolve(jobDir);
  if (resolved === job || resolved.startsWith(`${job}/`)) return resolved;
  await fsp.mkdir(dir, { recursive: true });
  const stat = await fsp.stat(resolved);
  let target = path.join(dir, path.basename(resolved));
  for (let i = 1; exists(target); i++) target = path.join(dir, `${i}-${path.basename(resolved)}`);
  if (stat.isDirectory()) await fsp.cp(resolved, target, { recursive: true });
  else await fsp.copyFile(resolved, target);
  return target;
}

let check: Promise<string | null> | null = null;

/**
 * Whether the sandbox works on this machine: null when a program runs in it, else why not. Runs
 * `true` in a sandbox like a job's (cached for the process).
 */
export function sandboxProblem(): Promise<string | null> {
  check ??= (async () => {
    const bwrap = bwrapPath();
    for (const binary of [bwrap, PRLIMIT, ...(sandboxIdentity().dropFromRoot ? [SETPRIV] : [])]) {
      if (!exists(binary)) return `${binary} is missing`;
    }
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "layerline-sandbox-check-"));
    try {
      await prepareJobDir(dir);
      const run = sandboxCommand(
        "/usr/bin/true",
        [],
        dir,
        {},
        { jobDir: dir, writable: [], limits: sandboxLimits() },
      );
      return await new Promise<string | null>((resolve) => {
        const env = run.env as unknown as NodeJS.ProcessEnv;
        execFile(run.command, run.args, { env, timeout: 30_000 }, (err, _stdout, stderr) => {
          resolve(
            err ? `${bwrap} cannot start a sandbox: ${(stderr || err.message).trim().slice(0, 500)}` : null,
          );
        });
      });
    } finally {
      await fsp.rm(dir, { recursive: true, force: true }).catch(() => {});
    }
  })();
  return check;
}

/** Forget the cached check (tests that change LAYERLINE_BWRAP). */
export function resetSandboxCheck(): void {
  check = null;
}

/** The message a start that needs the sandbox fails with. */
export function sandboxRefusal(problem: string): string {
  return (
    `the sandbox user programs run in is not available (${problem}). Install bubblewrap and util-linux ` +
    "(Debian/Ubuntu: apt-get install bubblewrap util-linux), or, on a development machine only, set " +
    "LAYERLINE_SANDBOX=off to run training programs without it."
  );
}

export const SANDBOX_OFF_WARNING =
  "WARNING: LAYERLINE_SANDBOX=off: training programs, fine-tuning and weight checks run WITHOUT the " +
  "sandbox, as this server's own user, with its files and network. Never do this where others' " +
  "graphs, data or weights are run.";
