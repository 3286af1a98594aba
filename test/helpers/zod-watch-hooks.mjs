// Module hooks for zod-watch.mjs.
let port;

export function initialize(data) {
  port = data.port;
}

export async function resolve(specifier, context, next) {
  if (specifier === "zod" || specifier.startsWith("zod/")) port.postMessage(specifier);
  return next(specifier, context);
}
