/** A snapshot folder's name: the number, zero-padded so the names sort in publish order. */
export function snapshotFolder(number: number): string {
  return String(number).padStart(6, "0");
}
