/**
 * Operator commands (`npm run admin -- <command>`), run against DATABASE_URL or the embedded database
 * in DATA_DIR (stop the server first in embedded mode: the embedded database has one owner).
 *
 *   npm run admin -- set-plan <username> <free|pro|team>
 */
import { closeDb, openDb, setDb, targetFromEnv } from "../lib/server/db/client";
import { setPlan } from "../lib/server/services/accounts";

const USAGE = "usage: npm run admin -- set-plan <username> <free|pro|team>";

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command !== "set-plan" || args.length !== 2) {
    console.error(USAGE);
    return 2;
  }
  const open = await openDb(targetFromEnv());
  setDb(open);
  try {
    const user = await setPlan(open.db, args[0], args[1]);
    console.info(`${user.username} is now on the ${user.plan} plan.`);
    return 0;
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 1;
  } finally {
    await closeDb();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
