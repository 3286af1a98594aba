import { createHmac } from "node:crypto";
import { hashOf, hex8 } from "./seeded-random.js";

/** Key scopes (spec section 5). */
export const SCOPES = ["play", "read:scores", "manage:runs"] as const;
export type Scope = (typeof SCOPES)[number];

/** Entitlement that gates RL and DPO export (spec 4.9, 4.10). */
export const RL_DPO_EXPORT = "rl_dpo_export";

/** An account: owns campaigns, runs and keys, and carries the entitlements its keys act with. */
export interface Account {
  readonly index: number;
  readonly accountId: string;
  readonly name: string;
  /** Portal session token (a JWT) for the owner routes. */
  readonly ownerToken: string;
  readonly entitlements: readonly string[];
}

// `simulation` is the feature of batches, submissions, rescore and diff: the spec does not name its flag.
const ACCOUNT_SETUP = [
  { name: "Primary lab", entitlements: [RL_DPO_EXPORT, "simulation", "academy_eval_coaching"] },
  { name: "Partner team", entitlements: ["simulation"] },
] as const;

/** The world's two accounts: the first with `rl_dpo_export`, the second without. */
export function makeAccounts(seed: number, issuedAtMs: number): Account[] {
  return ACCOUNT_SETUP.map((setup, index) => {
    const accountId = `acct_${hex8(hashOf(seed, "account", index))}`;
    return {
      index,
      accountId,
      name: setup.name,
      ownerToken: portalToken(seed, accountId, issuedAtMs),
      entitlements: [...setup.entitlements],
    };
  });
}

/** A JWT-shaped token signed with a seed-derived secret, so it is stable per seed. */
function portalToken(seed: number, accountId: string, issuedAtMs: number): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const iat = Math.floor(issuedAtMs / 1000);
  const unsigned = `${encode({ alg: "HS256", typ: "JWT" })}.${encode({ sub: accountId, iss: "evalshard-emulator", iat })}`;
  const signature = createHmac("sha256", `evalshard-emulator-${seed}`).update(unsigned).digest("base64url");
  return `${unsigned}.${signature}`;
}
