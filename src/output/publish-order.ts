/**
 * The order a version's top-level entries are put where readers look: the card (`README.md`, which names the
 * shards) first, `manifest.json` last, so a reader that finds the new manifest finds everything it names. A
 * crash recovery puts the old entries aside in the reverse order.
 */
export function publishOrder<T extends string | { readonly name: string }>(entries: readonly T[]): T[] {
  const rank = (entry: T) => {
    const name = typeof entry === "string" ? entry : entry.name;
    return name === "README.md" ? 0 : name === "manifest.json" ? 2 : 1;
  };
  return [...entries].sort((a, b) => rank(a) - rank(b));
}
