// AssemblyScript: the entry of the fast path's wasm module (dist/wasm/scan.wasm), whose exports are these.
export { heapEnd } from "./scan";
export { auditJson, skipForm, skipFormAnswer, skipValue } from "./skip";
export { walk, walkAreas } from "./walk";
export { auditStop, auditLooksAt, auditText, auditTexts } from "./audit";
export { lineHash } from "./digest";
export { jsonForm } from "./json-form";
