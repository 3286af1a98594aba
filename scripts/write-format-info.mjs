#!/usr/bin/env node
// Part of `npm run build`: writes dist/formats/format-info.json, each format's FormatInfo derived from its
// zod schema, so the parallel engine's main thread can set up a run without loading zod. Derived from the
// build itself, so it is never stale; test/formats/format-info.test.ts checks it against the schemas.
import { writeFileSync } from "node:fs";

const dist = new URL("../dist/formats/", import.meta.url);
const [{ FORMATS }, { FORMAT_NAMES }, { formatInfoOf }] = await Promise.all([
  import(new URL("index.js", dist).href),
  import(new URL("format.js", dist).href),
  import(new URL("format-info-of.js", dist).href),
]);
const info = Object.fromEntries(FORMAT_NAMES.map((name) => [name, formatInfoOf(FORMATS[name])]));
writeFileSync(new URL("format-info.json", dist), `${JSON.stringify(info)}\n`);
