import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES } from "./flow.js";

const fx = (name: string) => readFileSync(`${FIXTURES}records/${name}`, "utf8").trim().split("\n");

/**
 * An SFT export with every way a line's number or offset can move: a BOM, CRLF line ends, blank lines, an
 * invalid UTF-8 byte, a line of 10,701 bytes (over `--max-line-bytes 4096`), and the fixtures' bad, duplicate,
 * filtered and partial-stream lines. Written to `dir`; returns its path.
 */
export function mixedLinesInput(dir: string): string {
  const good = fx("sft-valid.ndjson");
  const invalidUtf8 = Buffer.from((good[0] as string).replace("run-", "run-\u00e9"));
  invalidUtf8[invalidUtf8.indexOf(0xc3)] = 0xff;
  const path = join(dir, "mixed.ndjson");
  writeFileSync(
    path,
    Buffer.concat([
      Buffer.from("\uFEFF"),
      Buffer.from([...fx("sft-bad-lines.ndjson"), "", "   ", ...fx("sft-duplicates.ndjson")].join("\r\n")),
      Buffer.from("\n\n"),
      invalidUtf8,
      Buffer.from(`\n${[...fx("sft-filters.ndjson"), "\t", ...fx("sft-stream-errors.ndjson"), ...fx("sft-long-line.ndjson")].join("\n")}\n`),
    ]),
  );
  return path;
}
