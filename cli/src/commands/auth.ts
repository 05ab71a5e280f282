import { createInterface } from "node:readline";
import { Layerline } from "../../../sdk/src/client";
import { LayerlineError } from "../../../sdk/src/errors";
import { removeConfig, saveConfig } from "../config";
import { AuthError, type CommandRegistry, stringOption, UsageError } from "../registry";

/** Reads the key from the terminal without echoing it, or the first line of piped stdin. */
async function promptKey(): Promise<string> {
  const input = process.stdin;
  const rl = createInterface({ input, output: process.stderr, terminal: Boolean(input.isTTY) });
  if (input.isTTY) {
    process.stderr.write("Personal API key (lk_…, from Settings → API keys): ");
    // Mute the echo of what is typed.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
  }
  try {
    const line = await new Promise<string>((resolve) => {
      rl.once("line", resolve);
      rl.once("close", () => resolve(""));
    });
    if (input.isTTY) process.stderr.write("\n");
    return line.trim();
  } finally {
    rl.close();
  }
}

const mask = (key: string) => `${key.slice(0, 7)}…`;

export function registerAuth(registry: CommandRegistry): void {
  registry.register({
    name: "login",
    summary: "Store a personal API key (verified against the server) in the config file",
    usage: "[--key <lk_…>] [--url <server>]",
    help: "Without --key, the key is read from the terminal (hidden) or from stdin. The config file is $XDG_CONFIG_HOME/layerline/config.json (~/.config/layerline/config.json), mode 0600.",
    options: { key: { type: "string" } },
    async run({ options, config, out }) {
      const key = stringOption(options, "key") ?? (await promptKey());
      if (!key) throw new UsageError("No key given.");
      if (!key.startsWith("lk_")) throw new UsageError("A personal API key starts with lk_.");
      const client = new Layerline({ baseUrl: config.url, apiKey: key });
      try {
        const { data } = await client.api.GET("/api/v1/users/me/entitlements");
        await saveConfig(config.path, { url: config.url, key });
        out.result({ url: config.url, config_path: config.path, plan: data?.plan ?? null }, () =>
          [
            `Logged in to ${config.url} (plan: ${data?.plan.name ?? "?"}).`,
            `Key stored in ${config.path} (mode 0600).`,
          ].join("\n"),
        );
        return 0;
      } catch (err) {
        if (err instanceof LayerlineError && err.status === 401)
          throw new AuthError(`The server at ${config.url} refused this key (${err.detail}).`);
        throw err;
      }
    },
  });

  registry.register({
    name: "logout",
    summary: "Remove the stored key",
    async run({ config, out }) {
      const removed = await removeConfig(config.path);
      out.result({ removed, config_path: config.path }, () =>
        removed ? `Logged out (removed ${config.path}).` : "Not logged in.",
      );
      if (config.keySource === "env") out.info("Note: LAYERLINE_API_KEY is still set in this environment.");
      return 0;
    },
  });

  registry.register({
    name: "whoami",
    summary: "Show the server, the key in use, the plan and the credit balance",
    async run({ client, config, out }) {
      const c = client();
      const [{ data: entitlements }, { data: credits }] = await Promise.all([
        c.api.GET("/api/v1/users/me/entitlements"),
        c.api.GET("/api/v1/users/me/credits"),
      ]);
      const key = config.key ?? "";
      out.result(
        {
          url: config.url,
          key_prefix: mask(key),
          key_source: config.keySource,
          plan: entitlements?.plan ?? null,
          credits: credits?.balance ?? null,
        },
        () =>
          [
            `Server:  ${config.url}`,
            `Key:     ${mask(key)} (from ${config.keySource === "env" ? "LAYERLINE_API_KEY" : config.path})`,
            `Plan:    ${entitlements?.plan.name ?? "?"}`,
            `Credits: ${credits?.balance ?? "?"}`,
          ].join("\n"),
      );
      return 0;
    },
  });
}
