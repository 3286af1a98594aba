export const JSON_TYPE = "application/json";
const NDJSON_TYPE = "application/x-ndjson";

/** A whole JSON body. */
export interface JsonReply {
  readonly kind: "json";
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A body produced piece by piece and written with backpressure, so a bulk export never exists whole
 * in memory. For NDJSON every chunk is exactly one line with its newline, which is what lets a fault
 * cut the stream in the middle of a line.
 */
export interface StreamReply {
  readonly kind: "stream";
  readonly status: number;
  readonly contentType: string;
  readonly chunks: Iterable<string>;
}

export type Reply = JsonReply | StreamReply;

export function json(body: unknown, status = 200, headers?: Readonly<Record<string, string>>): JsonReply {
  return headers === undefined ? { kind: "json", status, body } : { kind: "json", status, body, headers };
}

/** An NDJSON stream of the values a generator yields, one line each. */
export function ndjson(values: Iterable<unknown>): StreamReply {
  return { kind: "stream", status: 200, contentType: NDJSON_TYPE, chunks: lines(values) };
}

/** A JSON object `{[field]: [...]}` whose array is streamed, for listings that can run to megabytes. */
export function jsonArrayField(field: string, values: Iterable<unknown>): StreamReply {
  return { kind: "stream", status: 200, contentType: JSON_TYPE, chunks: arrayChunks(field, values) };
}

function* lines(values: Iterable<unknown>): Generator<string> {
  for (const value of values) yield `${JSON.stringify(value)}\n`;
}

function* arrayChunks(field: string, values: Iterable<unknown>): Generator<string> {
  yield `{${JSON.stringify(field)}:[`;
  let first = true;
  for (const value of values) {
    yield (first ? "" : ",") + JSON.stringify(value);
    first = false;
  }
  yield "]}";
}
