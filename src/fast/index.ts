export { compileLineParser } from "./compile-line-parser.js";
export type { LineParser } from "./compile-line-parser.js";
