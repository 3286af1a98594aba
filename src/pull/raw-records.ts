import { NetworkError, StreamCutError, type Query, type ServiceClient } from "../http/index.js";
import { recordEntries } from "./record-slices.js";

const MAX_RESTARTS = 5;

/**
 * GETs a `{records: [...]}` body and returns each record's raw JSON text as received, so the spool holds
 * what the service sent rather than a re-serialisation. The body is read through `getNdjson`, the
 * client's one raw-text path, which retries failures before any line arrives; a body spread over
 * several lines and cut after some of them is requested again.
 */
export async function getRawRecords(client: Pick<ServiceClient, "getNdjson">, path: string, query?: Query): Promise<string[]> {
  return (await getRawRecordEntries(client, path, query)).map((entry) => entry.text);
}

/** {@link getRawRecords} with each record's parsed value too (the body is parsed once). */
export async function getRawRecordEntries(client: Pick<ServiceClient, "getNdjson">, path: string, query?: Query): Promise<{ text: string; value: unknown }[]> {
  for (let restart = 0; ; restart++) {
    const lines: string[] = [];
    try {
      for await (const line of client.getNdjson(path, query)) lines.push(line);
    } catch (error) {
      if (error instanceof StreamCutError && restart < MAX_RESTARTS) continue;
      throw error;
    }
    const text = lines.join("\n");
    try {
      return recordEntries(text);
    } catch (error) {
      throw new NetworkError(`GET ${path} answered a body that is not a {records: [...]} object`, "GET", path, 1, "cut", { cause: error });
    }
  }
}
