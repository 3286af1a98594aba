import { createRequire } from "node:module";

/** evalshard's own version, from package.json (two levels above both src/core/ and dist/core/). */
export const EVALSHARD_VERSION: string = (createRequire(import.meta.url)("../../package.json") as { version: string }).version;
