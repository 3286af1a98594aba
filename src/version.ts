import { createRequire } from "node:module";

/** evalshard's own version, from package.json (one level above both src/ and dist/). */
export const EVALSHARD_VERSION: string = (createRequire(import.meta.url)("../package.json") as { version: string }).version;
