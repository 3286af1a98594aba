/**
 * `__proto__` is a key like any other in JSON, and JSON.parse keeps it as an own property, but zod leaves it
 * out of what it parses (assigning it would set the prototype): a trait named `__proto__` in
 * `scores.per_trait` vanished. The validate stage hides such keys under a stand-in while zod parses, then
 * puts them back, as own properties, in their place.
 */
const STAND_IN = "__proto__\u0000evalshard";

/** Whether a line's text may hold a `__proto__` key, written plainly or with escapes. */
export const MAY_HOLD_PROTO = /__proto__|\\u00(?:5[fF]|6[fF]|7[024])/;

const own = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/** `value` with every `__proto__` key renamed to the stand-in (objects holding one are rebuilt, key order kept). */
export function hideProtoKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hideProtoKeys);
  if (value === null || typeof value !== "object") return value;
  const hides = own(value, "__proto__") && !own(value, STAND_IN);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) defineOwn(out, hides && key === "__proto__" ? STAND_IN : key, hideProtoKeys(v));
  return out;
}

/** Undoes {@link hideProtoKeys} on zod's output: the stand-in becomes `__proto__` again, an own property. */
export function restoreProtoKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(restoreProtoKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) defineOwn(out, key === STAND_IN ? "__proto__" : key, restoreProtoKeys(v));
  return out;
}

function defineOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}
