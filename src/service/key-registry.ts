import type { Scope } from "./accounts.js";
import { IdCodec } from "./opaque-id.js";
import { SeededRandom } from "./seeded-random.js";
import { iso } from "./world-clock.js";

/** Most active keys one account may hold (spec section 8). */
export const MAX_ACTIVE_KEYS = 50;

/** An API key as the service stores it. */
export interface ApiKeyRecord {
  readonly apiKey: string;
  readonly apiKeyId: string;
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly account: number;
  readonly createdAt: number;
  lastUsedAt: number | null;
  revoked: boolean;
}

/** The listing form of a key (spec 4.7): everything but the raw key. */
export interface ApiKeyListing {
  api_key_id: string;
  name: string;
  scopes: Scope[];
  created_at: string;
  last_used_at: string | null;
  revoked: boolean;
}

/**
 * Every key of every account. Secrets and ids derive from the seed and the creation order, so two
 * servers that see the same requests hand out the same keys.
 */
export class KeyRegistry {
  private readonly keys: ApiKeyRecord[] = [];
  private readonly bySecret = new Map<string, ApiKeyRecord>();
  private readonly byId = new Map<string, ApiKeyRecord>();
  private readonly ids: IdCodec;

  constructor(private readonly seed: number) {
    this.ids = new IdCodec(seed, "api_key");
  }

  create(account: number, name: string, scopes: readonly Scope[], createdAt: number): ApiKeyRecord {
    const index = this.keys.length;
    const key: ApiKeyRecord = {
      apiKey: `esk_${new SeededRandom(this.seed, "api-key-secret", index).hex(40)}`,
      apiKeyId: this.ids.encode(index),
      name,
      scopes: [...scopes],
      account,
      createdAt,
      lastUsedAt: null,
      revoked: false,
    };
    this.keys.push(key);
    this.bySecret.set(key.apiKey, key);
    this.byId.set(key.apiKeyId, key);
    return key;
  }

  /** The key a bearer secret names, revoked or not. */
  findSecret(secret: string): ApiKeyRecord | undefined {
    return this.bySecret.get(secret);
  }

  findId(apiKeyId: string): ApiKeyRecord | undefined {
    return this.byId.get(apiKeyId);
  }

  ofAccount(account: number): ApiKeyRecord[] {
    return this.keys.filter((k) => k.account === account);
  }

  activeCount(account: number): number {
    return this.keys.filter((k) => k.account === account && !k.revoked).length;
  }
}

/** The listing form of a key. */
export function keyListing(key: ApiKeyRecord): ApiKeyListing {
  return {
    api_key_id: key.apiKeyId,
    name: key.name,
    scopes: [...key.scopes],
    created_at: iso(key.createdAt),
    last_used_at: key.lastUsedAt === null ? null : iso(key.lastUsedAt),
    revoked: key.revoked,
  };
}
