// snappyjs ships no types; only the compressor is used (compress-page.ts).
declare module "snappyjs" {
  /** Snappy's raw block format (what Parquet's SNAPPY codec holds), in a new array of the input's kind. */
  export function compress<T extends Uint8Array | ArrayBuffer>(input: T): T;
  export function uncompress<T extends Uint8Array | ArrayBuffer>(compressed: T, maxLength?: number): T;
  const snappy: { compress: typeof compress; uncompress: typeof uncompress };
  export default snappy;
}
