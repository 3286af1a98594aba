import { ConfigError } from "../core/errors.js";

/** js-tiktoken's encoder and the o200k_base ranks, loaded when a `tiktoken:` tokenizer is asked for. */
export async function loadTiktoken(): Promise<{ Tiktoken: typeof import("js-tiktoken/lite").Tiktoken; ranks: import("js-tiktoken/lite").TiktokenBPE }> {
  try {
    const [{ Tiktoken }, ranks] = await Promise.all([import("js-tiktoken/lite"), import("js-tiktoken/ranks/o200k_base")]);
    return { Tiktoken, ranks: ranks.default };
  } catch (error) {
    // An optional peer dependency: its ranks for every encoding are 22 MB, more than the rest of the install.
    if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND" || !String((error as Error).message).includes("js-tiktoken")) throw error;
    throw new ConfigError("--tokenizer tiktoken:o200k_base needs js-tiktoken, an optional peer dependency: npm install js-tiktoken", { cause: error });
  }
}
