import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES } from "./flow.js";

/**
 * Writes `dir/large.ndjson`, ~40 MiB of SFT: repetition r copies sft-valid's records under new run ids, and
 * every 50th repeats an earlier one's ids (duplicates across the parallel engine's units). Same bytes every time.
 */
export function largeSftCorpus(dir: string): string {
  const base = readFileSync(`${FIXTURES}records/sft-valid.ndjson`, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const lines: string[] = [];
  for (let r = 0; lines.length * 740 < 40 << 20; r++) {
    const id = r % 50 === 49 ? r - 40 : r;
    for (const record of base) lines.push(JSON.stringify({ ...record, run_id: `${String(record.run_id)}-${id}` }));
  }
  const file = join(dir, "large.ndjson");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}
