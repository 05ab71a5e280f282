import fs from "node:fs";
import path from "node:path";

export class DataDirectoryLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The data directory ${dir} is already in use by process ${pid}. The embedded database can be opened by ` +
        "one process only; stop that process, choose another DATA_DIR, or set DATABASE_URL to use PostgreSQL.",
    );
    this.name = "DataDirectoryLockedError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes an exclusive lock on a data directory (PGlite has no cross-process locking: a second process
 * would write without error and lose its rows). A lock left by a dead process is taken over.
 * Returns a function that releases the lock.
 */
export function acquireDirectoryLock(dir: string): () => void {
  const file = path.join(dir, "layerline.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, "wx");
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      const release = () => {
        try {
          if (fs.readFileSync(file, "utf8") === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number(fs.readFileSync(file, "utf8").trim());
      if (pid === process.pid) return () => {};
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) throw new DataDirectoryLockedError(dir, pid);
      fs.rmSync(file, { force: true }); // stale lock from a process that died
    }
  }
  throw new Error(`Could not lock the data directory ${dir}`);
}
