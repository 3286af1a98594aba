#!/usr/bin/env node
// Part of `npm run build`: writes dist/formats/format-info.json, each format's FormatInfo derived from its
// zod schema, so the parallel engine's main thread can set up a run without loading zod. Derived from the
// build itself, so it is never stale; test/formats/format-info.test.ts checks it against the schemas.
//
//   node scripts/write-format-info.mjs [distDir]   (default: the repo's dist)
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dist = process.argv[2] === undefined ? new URL("../dist/formats/", import.meta.url) : pathToFileURL(`${resolve(process.argv[2])}/formats/`);
const [{ FORMATS }, { FORMAT_NAMES }, { formatInfoOf }] = await Promise.all([
  import(new URL("index.js", dist).href),
  import(new URL("format.js", dist).href),
  import(new URL("format-info-of.js", dist).href),
]);
const info = Object.fromEntries(FORMAT_NAMES.map((name) => [name, formatInfoOf(FORMATS[name])]));
writeFileSync(new URL("format-info.json", dist), `${JSON.stringify(info)}\n`);
