import { sha256Hex } from "../../core/sha256-hex.js";
import { createIfAbsent } from "../../output/create-if-absent.js";
import type { Files } from "../../output/storage.js";
import { commitNight, type CommitOptions, type CommitResult } from "./commit-night.js";
import { readStagedPart, stagedPartPath } from "./staged-part.js";

/**
 * Whether this part, having staged `night`, is the one to commit it: every part 0..N-1 has staged the night,
 * and this part's conditional write of the claim on that set of parts' manifests is the one that landed.
 * Each part writes its staged record before it looks, so of parts finishing together at least one sees all
 * N, and of those exactly one claims. The claim names the parts' manifest digests: a part rerun for the same
 * night with a different share makes a new set, which its own rerun then claims and commits; a rerun that
 * changed nothing finds the claim taken (the night is committed).
 */
export async function claimCommit(root: Files, night: string, index: number, count: number): Promise<boolean> {
  const digests: string[] = [];
  for (let k = 0; k < count; k++) {
    const staged = await readStagedPart(root, night, k, count);
    if (staged === null) return false;
    digests.push(staged.manifest_sha256);
  }
  const set = sha256Hex(digests.join("\n")).slice(0, 16);
  const claim = stagedPartPath(night, index, count).replace(/[^/]+$/, `commit-${set}.json`);
  return createIfAbsent(root, claim, `${JSON.stringify({ night, part: index, count, claimed_at: new Date().toISOString() })}\n`);
}

/** {@link commitNight} of `out` when {@link claimCommit} says this part is the last; null otherwise. */
export async function commitIfLast(root: Files, out: string, index: number, options: CommitOptions): Promise<CommitResult | null> {
  return (await claimCommit(root, options.night, index, options.parts)) ? commitNight(out, options) : null;
}
