import { describe, expect, it } from "vitest";
import { isEvalshardOwn } from "../../src/output/evalshard-own.js";

// Issue 40: evalshard's own files are told by the markers it writes, never by a name a user could have chosen.
const fresh = { link: null, published: null } as const;
const local = { link: null, published: [] } as const;
const s3 = { link: null, published: ["README.md", "manifest.json", "data", "_quarantine"] } as const;

describe("isEvalshardOwn", () => {
  it("evalshard's hidden layout, anywhere", () => {
    for (const path of [".evalshard-current", ".evalshard-snapshots", ".evalshard-tmp-x", ".evalshard.lock", ".evalshard/current.json", ".evalshard/lock"]) expect(isEvalshardOwn(path, fresh), path).toBe(true);
  });

  it("a refused attempt by its folder's name; a user's _rejected folder is not one", () => {
    expect(isEvalshardOwn("_rejected/20261128T171113Z-e9042e", fresh)).toBe(true);
    expect(isEvalshardOwn("_rejected/20261128T171113Z-e9042e/manifest.json", fresh)).toBe(true);
    expect(isEvalshardOwn("_rejected/old-attempts", local)).toBe(false);
    expect(isEvalshardOwn("_rejected", fresh)).toBe(false);
  });

  it("a dataset name is evalshard's only as a link into .evalshard-current, or as a published S3 root copy", () => {
    for (const name of ["README.md", "manifest.json", "data", "_quarantine"]) {
      expect(isEvalshardOwn(name, { link: `.evalshard-current/${name}`, published: [] }), name).toBe(true);
      expect(isEvalshardOwn(name, { link: "elsewhere", published: [] }), name).toBe(false);
      expect(isEvalshardOwn(name, local), name).toBe(false);
      expect(isEvalshardOwn(name, fresh), name).toBe(false);
    }
    expect(isEvalshardOwn("README.md", s3)).toBe(true);
    expect(isEvalshardOwn("manifest.json", s3)).toBe(true);
    // A loose object below a published name is not the snapshot's (those live under snapshots/).
    expect(isEvalshardOwn("data/train-00000-of-00001.parquet", s3)).toBe(false);
  });

  it("snapshot folders: S3's by their name, a local nightly's numbered ones once a dataset is published", () => {
    expect(isEvalshardOwn("snapshots/000007-3f9a1c/data/x.parquet", fresh)).toBe(true);
    expect(isEvalshardOwn("snapshots/000007", local)).toBe(true);
    expect(isEvalshardOwn("snapshots/000008.pending", local)).toBe(true);
    expect(isEvalshardOwn("snapshots/000007", fresh)).toBe(false);
    expect(isEvalshardOwn("snapshots/holiday.jpg", local)).toBe(false);
  });
});
