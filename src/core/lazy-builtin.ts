import { createRequire } from "node:module";

const load = createRequire(import.meta.url);

/**
 * Node's module `name`, loaded at the first call instead of at import: a parallel worker starts without the
 * modules only some runs need (node:crypto, node:zlib: ~1-2 ms apiece of every worker's start-up). The
 * worker's bundle lists them (scripts/bundle.mjs, WORKER_LAZY_BUILTINS) and refuses any other at start.
 */
export function lazyBuiltin<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load(name));
}
