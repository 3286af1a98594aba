import type { ServiceClient } from "../http/index.js";

/**
 * Requests every target of `entries` (lines of {@link ExportAnswers}) again, `concurrency` at a time,
 * hashing each body without parsing it, and answers whether every one is the same (size and sha256).
 * It stops starting requests at the first difference or failure: the caller then pulls as usual, and
 * that pull meets any lasting failure itself.
 */
export async function sameAnswers(client: Pick<ServiceClient, "digestBody">, entries: string, concurrency: number): Promise<{ same: boolean; requests: number }> {
  let at = 0;
  let same = true;
  let requests = 0;
  const next = (): string | undefined => {
    if (!same || at >= entries.length) return undefined;
    const end = entries.indexOf("\n", at);
    const line = entries.slice(at, end === -1 ? entries.length : end);
    at = end === -1 ? entries.length : end + 1;
    return line;
  };
  const worker = async () => {
    for (let line = next(); line !== undefined; line = next()) {
      const [sha256, bytes, target] = line.split("\t");
      if (sha256 === undefined || bytes === undefined || target === undefined || target === "") {
        same = false;
        return;
      }
      requests++;
      try {
        const body = await client.digestBody(target);
        if (body.sha256 !== sha256 || String(body.bytes) !== bytes) same = false;
      } catch {
        same = false;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return { same, requests };
}
