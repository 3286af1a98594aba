#!/usr/bin/env node
// Part of `npm run build`: writes dist/engines/parallel/fast/format-info.json, each format's FormatInfo (the fast path's view
// of it: basics and the parser's compiled schema) derived from its zod schema, so the parallel engine's main
// thread can set up a run without loading zod. Derived from the build itself, so it is never stale;
// test/engines/parallel/fast/format-info.test.ts checks it against the schemas.
//
//   node scripts/write-format-info.mjs [distDir]   (default: the repo's dist)
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dist = process.argv[2] === undefined ? new URL("../dist/", import.meta.url) : pathToFileURL(`${resolve(process.argv[2])}/`);
const [{ FORMATS }, { FORMAT_NAMES }, { formatInfoOf }] = await Promise.all([
  import(new URL("formats/index.js", dist).href),
  import(new URL("formats/format.js", dist).href),
  import(new URL("engines/parallel/fast/format-info-of.js", dist).href),
]);
const info = Object.fromEntries(FORMAT_NAMES.map((name) => [name, formatInfoOf(FORMATS[name])]));
writeFileSync(new URL("engines/parallel/fast/format-info.json", dist), `${JSON.stringify(info)}\n`);
