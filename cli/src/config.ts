/**
 * The CLI's configuration: `{url, key}` in $XDG_CONFIG_HOME/layerline/config.json (default
 * ~/.config/layerline/config.json), written with mode 0600 in a 0700 directory.
 * LAYERLINE_URL and LAYERLINE_API_KEY override the file.
 */
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

export const DEFAULT_URL = "http://localhost:3000";

const fileSchema = z.object({ url: z.string().url().optional(), key: z.string().min(1).optional() });

export interface CliConfig {
  url: string;
  key: string | undefined;
  /** Where the key came from: "env", "file" or none. */
  keySource: "env" | "file" | null;
  path: string;
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || path.join(os.homedir(), ".config");
  return path.join(base, "layerline", "config.json");
}

export async function readConfigFile(file: string): Promise<z.infer<typeof fileSchema>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return {};
  }
  try {
    const parsed = fileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export async function loadConfig(env: NodeJS.ProcessEnv = process.env, urlFlag?: string): Promise<CliConfig> {
  const file = configPath(env);
  const stored = await readConfigFile(file);
  const envKey = env.LAYERLINE_API_KEY?.trim();
  return {
    url: (urlFlag || env.LAYERLINE_URL?.trim() || stored.url || DEFAULT_URL).replace(/\/+$/, ""),
    key: envKey || stored.key,
    keySource: envKey ? "env" : stored.key ? "file" : null,
    path: file,
  };
}

/** Writes {url, key} atomically, readable by the owner only. */
export async function saveConfig(file: string, value: { url: string; key: string }): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, file);
}

export async function removeConfig(file: string): Promise<boolean> {
  try {
    await rm(file);
    return true;
  } catch {
    return false;
  }
}
