/**
 * Operator commands (`npm run admin -- <command>`), run against DATABASE_URL or the embedded database
 * in DATA_DIR (stop the server first in embedded mode: the embedded database has one owner).
 *
 *   npm run admin -- set-plan <username> <free|pro|team>
 *   npm run admin -- feature <hub model id>      (listed under the hub's Featured)
 *   npm run admin -- unfeature <hub model id>
 */
import { closeDb, openDb, setDb, targetFromEnv } from "../lib/server/db/client";
import { setPlan } from "../lib/server/modules/account/accounts";
import { setFeatured } from "../lib/server/modules/hub/models";

const USAGE = [
  "usage: npm run admin -- set-plan <username> <free|pro|team>",
  "       npm run admin -- feature <hub model id>",
  "       npm run admin -- unfeature <hub model id>",
].join("\n");

const COMMANDS: Record<
  string,
  { args: number; run: (db: Parameters<typeof setPlan>[0], args: string[]) => Promise<string> }
> = {
  "set-plan": {
    args: 2,
    run: async (db, [username, plan]) => {
      const user = await setPlan(db, username, plan);
      return `${user.username} is now on the ${user.plan} plan.`;
    },
  },
  feature: {
    args: 1,
    run: async (db, [id]) => `${(await setFeatured(db, id, true)).name} is featured on the hub.`,
  },
  unfeature: {
    args: 1,
    run: async (db, [id]) => `${(await setFeatured(db, id, false)).name} is no longer featured.`,
  },
};

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const found = command ? COMMANDS[command] : undefined;
  if (!found || args.length !== found.args) {
    console.error(USAGE);
    return 2;
  }
  const open = await openDb(targetFromEnv());
  setDb(open);
  try {
    console.info(await found.run(open.db, args));
    return 0;
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 1;
  } finally {
    await closeDb();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
