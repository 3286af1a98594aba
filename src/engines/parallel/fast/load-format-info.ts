import { readFile } from "node:fs/promises";
import type { FormatName } from "../../../formats/format.js";
import type { FormatInfo } from "./format-info.js";

/**
 * Written next to the built module by `scripts/write-format-info.mjs` (part of `npm run build`), so main sets
 * a run up without loading zod and building the formats while the workers wait for their first batch.
 */
export const FORMAT_INFO_FILE = new URL("./format-info.json", import.meta.url);

let built: Promise<Readonly<Record<FormatName, FormatInfo>> | null> | null = null;

/**
 * The format's info: from the build's `format-info.json`, or, without one (running from sources), derived
 * from the zod schemas here and now.
 */
export async function loadFormatInfo(name: FormatName): Promise<FormatInfo> {
  built ??= readFile(FORMAT_INFO_FILE, "utf8").then(
    (text) => JSON.parse(text) as Record<FormatName, FormatInfo>,
    () => null,
  );
  const info = (await built)?.[name];
  if (info !== undefined) return info;
  const [{ FORMATS }, { formatInfoOf }] = await Promise.all([import("../../../formats/index.js"), import("./format-info-of.js")]);
  return formatInfoOf(FORMATS[name]);
}
