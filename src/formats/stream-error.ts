import { z } from "zod";

/** The line a bulk stream emits in place of a run it failed to process (spec 4.8). */
export const streamErrorLine = z.object({
  error: z.literal("partial_stream"),
  run_index: z.number().int().nullable().optional(),
});
export type StreamErrorLine = z.output<typeof streamErrorLine>;
