import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The package's own rules, as users meet them: the built entry point exports what the README shows.
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

describe("package", () => {
  it("exposes a typed ESM entry and the evalshard bin from dist/", () => {
    expect(pkg.type).toBe("module");
    expect(pkg.exports["."]).toEqual({ types: "./dist/index.d.ts", import: "./dist/index.js" });
    expect(pkg.bin.evalshard).toBe("dist/cli/main.js");
    expect(pkg.files).toEqual(expect.arrayContaining(["dist", "schemas", "pipelines"]));
    expect(readFileSync(new URL("../dist/cli/main.js", import.meta.url), "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
    // Executable as built (postbuild): `npx evalshard` in the checkout runs the file itself, and npm makes it
    // executable only when it first links it into its npx cache, not after a rebuild.
    if (process.platform !== "win32") expect(statSync(new URL("../dist/cli/main.js", import.meta.url)).mode & 0o111).toBe(0o111);
  });

  it("the CLI entry and the worker are bundled: they load packages and their own lazy parts, no library module", () => {
    // One file each instead of ~70 modules to resolve and load: ~65 ms of CPU per run (docs/decisions.md).
    // The worker is CommonJS (its loader starts ~10 ms sooner), its slow path one ESM bundle of its own.
    for (const [file, lazy] of [
      ["cli/main.js", /^\.\/cli-chunk-[A-Z0-9]+\.js$/],
      ["engines/parallel/run/convert-worker.cjs", /^\.\/worker-slow-path\.js$/],
      ["engines/parallel/run/worker-slow-path.js", null],
    ] as const) {
      const text = readFileSync(new URL(`../dist/${file}`, import.meta.url), "utf8");
      const specifiers = [...text.matchAll(/(?:from|import|require)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1] as string);
      const relative = specifiers.filter((s) => s.startsWith("."));
      if (lazy === null) expect(relative, file).toEqual([]);
      else {
        expect(relative.length, file).toBeGreaterThan(0);
        for (const s of relative) expect(s, file).toMatch(lazy);
      }
    }
  });

  it("ships the wasm scan module the workers load, built from src/engines/parallel/wasm/", () => {
    // Compiled by asc at build time (scripts/build-wasm.mjs), so users need no compiler; a worker cannot run without it.
    // This project's TypeScript libs do not declare WebAssembly; Node has it.
    type Described = { module?: string; name: string; kind: string }[];
    const { Module } = (globalThis as unknown as { WebAssembly: { Module: { new (bytes: Uint8Array): object; imports(m: object): Described; exports(m: object): Described } } }).WebAssembly;
    const module = new Module(readFileSync(new URL("../dist/engines/parallel/wasm/scan.wasm", import.meta.url)));
    expect(Module.imports(module)).toEqual([{ module: "env", name: "memory", kind: "memory" }]);
    expect(Module.exports(module).map((e) => e.name)).toEqual(expect.arrayContaining(["skipValue", "heapEnd", "walk", "walkAreas"]));
  });

  it("the built library exports the stages, sources, sinks, nightly pieces and the emulator", async () => {
    const lib = await import("../dist/index.js");
    for (const name of ["convert", "validate", "filter", "strip", "planPipeline", "runPipeline", "fileSource", "parquetFormat", "nativeParquetFormat", "jsonlFormat", "ShardedWriter", "runNightly", "writeSnapshot", "httpSource", "createServiceClient", "loadPipeline", "startEmulator", "FORMATS", "ConfigError"]) {
      expect(typeof (lib as Record<string, unknown>)[name], name).not.toBe("undefined");
    }
  });
});
