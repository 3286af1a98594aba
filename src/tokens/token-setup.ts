import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ConfigError } from "../core/errors.js";
import { readOptionFile } from "../core/read-option-file.js";
import { sha256Hex } from "../core/sha256-hex.js";
import { loadTiktoken } from "./load-tiktoken.js";
import { isRecord } from "../core/is-record.js";

/** The tiktoken encodings `--tokenizer tiktoken:NAME` takes: what the OpenAI fine-tuning models count in. */
export const TIKTOKEN_ENCODINGS = ["o200k_base"] as const;

/** The special-token names transformers hands a chat template (`special_tokens_map`), from tokenizer_config.json. */
const SPECIAL_TOKEN_NAMES = ["bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"] as const;

/** A file as the manifest names it: the path given and its bytes' sha256. */
export interface NamedDigest {
  readonly name: string;
  readonly sha256: string;
}

/**
 * What counting tokens needs, files read and checked in main: plain data, so a worker thread opens its own
 * counter from it (`openTokenCounter`).
 */
export interface TokenSetup {
  readonly tokenizer:
    | { readonly kind: "hf"; readonly json: string; readonly digest: NamedDigest; readonly specialTokens: Readonly<Record<string, string>>; readonly controlTokens: readonly string[] }
    | { readonly kind: "tiktoken"; readonly encoding: (typeof TIKTOKEN_ENCODINGS)[number]; readonly digest: NamedDigest };
  /** The chat template (Jinja); null for tiktoken, which counts messages as the OpenAI API does. */
  readonly template: { readonly text: string; readonly digest: NamedDigest } | null;
  /** Rows whose training text is longer are dropped (`over_token_budget`); null: counted only. */
  readonly maxTokens: number | null;
}

/** What a run names: `--tokenizer`, `--chat-template`, `--max-tokens`. */
export interface TokenRequest {
  readonly tokenizer: string;
  readonly chatTemplate: string | undefined;
  readonly maxTokens: number | undefined;
}

/**
 * Reads and checks what `request` names: a `tokenizer.json` (a JSON object with a `model`), its chat template
 * from `--chat-template` or the `chat_template` of the tokenizer_config.json beside it, or `tiktoken:NAME`.
 * A ConfigError names the file and what is wrong with it.
 */
export async function readTokenSetup(request: TokenRequest): Promise<TokenSetup> {
  const maxTokens = request.maxTokens ?? null;
  if (request.tokenizer.startsWith("tiktoken:")) {
    const encoding = request.tokenizer.slice("tiktoken:".length);
    if (!(TIKTOKEN_ENCODINGS as readonly string[]).includes(encoding)) throw new ConfigError(`--tokenizer ${JSON.stringify(request.tokenizer)}: expected tiktoken:${TIKTOKEN_ENCODINGS.join(" or tiktoken:")}`);
    if (request.chatTemplate !== undefined) throw new ConfigError(`--chat-template goes with a Hugging Face tokenizer.json, not ${request.tokenizer} (the OpenAI views are counted as the API counts messages)`);
    // The BPE ranks as the package ships them: what the encoding's digest is of.
    const digest = { name: request.tokenizer, sha256: sha256Hex((await loadTiktoken()).ranks.bpe_ranks) };
    return { tokenizer: { kind: "tiktoken", encoding: encoding as (typeof TIKTOKEN_ENCODINGS)[number], digest }, template: null, maxTokens };
  }
  const json = await readOptionFile(request.tokenizer, "--tokenizer");
  const parsed = parseObject(json, request.tokenizer, "--tokenizer");
  if (parsed.model === null || typeof parsed.model !== "object" || typeof (parsed.model as { type?: unknown }).type !== "string") {
    throw new ConfigError(`--tokenizer ${JSON.stringify(request.tokenizer)} is not a Hugging Face tokenizer.json: it has no "model" with a "type"`);
  }
  const controlTokens = Array.isArray(parsed.added_tokens) ? addedSpecialTokens(parsed.added_tokens) : [];
  const configPath = join(dirname(request.tokenizer), "tokenizer_config.json");
  const configText = await readFile(configPath, "utf8").catch(() => null);
  const config = configText === null ? {} : parseObject(configText, configPath, "tokenizer_config.json");
  const specialTokens: Record<string, string> = {};
  for (const name of SPECIAL_TOKEN_NAMES) {
    const value = config[name];
    const content = typeof value === "string" ? value : isRecord(value) ? value.content : undefined;
    if (typeof content === "string") specialTokens[name] = content;
  }
  let template: TokenSetup["template"];
  if (request.chatTemplate !== undefined) {
    const text = await readOptionFile(request.chatTemplate, "--chat-template");
    template = { text, digest: { name: request.chatTemplate, sha256: sha256Hex(text) } };
  } else {
    const text = defaultTemplate(config.chat_template);
    if (text === undefined) throw new ConfigError(`--tokenizer ${JSON.stringify(request.tokenizer)}: no chat template in ${JSON.stringify(configPath)}; give one with --chat-template FILE`);
    template = { text, digest: { name: `${configPath}#chat_template`, sha256: sha256Hex(text) } };
  }
  const tokenizer = { kind: "hf" as const, json, digest: { name: request.tokenizer, sha256: sha256Hex(json) }, specialTokens, controlTokens };
  return { tokenizer, template, maxTokens };
}

/** A tokenizer.json's special tokens: the `content` of each of its `added_tokens` marked `special`. */
export function addedSpecialTokens(added: readonly unknown[]): string[] {
  return added.filter((t): t is { content: string } => t !== null && typeof t === "object" && "special" in t && t.special === true && "content" in t && typeof t.content === "string").map((t) => t.content);
}

/** A tokenizer_config.json's `chat_template`: one string, or named ones of which transformers takes `default`. */
function defaultTemplate(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    const named = value.find((t): t is { name: string; template: string } => t !== null && typeof t === "object" && t.name === "default" && typeof t.template === "string");
    return named?.template;
  }
  return undefined;
}

function parseObject(text: string, path: string, flag: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${flag} ${JSON.stringify(basename(path))} is not JSON: ${(error as Error).message}`);
  }
  if (!isRecord(value)) throw new ConfigError(`${flag} ${JSON.stringify(path)}: expected a JSON object`);
  return value;
}
