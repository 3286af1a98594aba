export { compressionFromName, decompress, sniffCompression } from "./decompress.js";
export { expandInputs } from "./expand-inputs.js";
export { fileSource } from "./file-source.js";
export { splitLines } from "./split-lines.js";
export { stdinSource } from "./stdin-source.js";

export type { Compression, DecompressOptions } from "./decompress.js";
export type { InputInfo, LineSource, OversizedLine, ReadOptions, SourceLine, TextLine } from "./line-source.js";
export type { StdinOptions } from "./stdin-source.js";
