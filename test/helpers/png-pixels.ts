import { inflateSync } from "node:zlib";

/** A decoded PNG: width, height and RGBA bytes (8-bit RGB or RGBA images, the kinds Chromium's screenshots are). */
export interface Pixels {
  readonly width: number;
  readonly height: number;
  readonly rgba: Uint8Array;
}

/** Decodes a non-interlaced 8-bit RGB/RGBA PNG, enough to look at a screenshot's colours without an image library. */
export function pngPixels(png: Uint8Array): Pixels {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  while (at < png.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      const d = new DataView(data.buffer, data.byteOffset, data.byteLength);
      width = d.getUint32(0);
      height = d.getUint32(4);
      const [depth, color, , , interlace] = [data[8], data[9], data[10], data[11], data[12]];
      if (depth !== 8 || interlace !== 0 || (color !== 2 && color !== 6)) throw new Error(`unsupported PNG: depth ${depth}, colour type ${color}, interlace ${interlace}`);
      channels = color === 6 ? 4 : 3;
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? (cur[x - channels] as number) : 0;
      const b = prev[x] as number;
      const c = x >= channels ? (prev[x - channels] as number) : 0;
      const v = line[x] as number;
      if (filter === 0) cur[x] = v;
      else if (filter === 1) cur[x] = v + a;
      else if (filter === 2) cur[x] = v + b;
      else if (filter === 3) cur[x] = v + ((a + b) >> 1);
      else {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        cur[x] = v + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
    }
    for (let x = 0; x < width; x++) {
      out.set([cur[x * channels] as number, cur[x * channels + 1] as number, cur[x * channels + 2] as number, channels === 4 ? (cur[x * channels + 3] as number) : 255], (y * width + x) * 4);
    }
    prev = cur;
  }
  return { width, height, rgba: out };
}

/** How many pixels have exactly this colour. */
export function countColour(p: Pixels, [r, g, b]: readonly [number, number, number]): number {
  let n = 0;
  for (let i = 0; i < p.rgba.length; i += 4) if (p.rgba[i] === r && p.rgba[i + 1] === g && p.rgba[i + 2] === b) n++;
  return n;
}
