import { ConfigError } from "../core/errors.js";
import { eachKept, type Stage } from "../core/flow.js";
import type { ValidRecord } from "../formats/valid-record.js";
import type { AnyView } from "./view.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewTally } from "./view-tally.js";
import { viewRows } from "./token-budget.js";
import { contextMissing } from "./view-traits.js";

/**
 * The view as a stage: each kept record becomes its rows, each a kept item with the record's provenance;
 * other items pass through. Steps and pairs left out are counted in `tally`, texts in `env.audit`.
 */
export function viewStage(view: AnyView, env: ViewEnv, tally: ViewTally): Stage<ValidRecord, Record<string, unknown>> {
  if (view.needsContext && env.context === null) throw contextMissing(view.name);
  const rows = viewRows(view);
  return eachKept(function* (item) {
    const { format, record } = item.value;
    if (format.name !== view.from) {
      throw new ConfigError(`The view ${view.name} reads ${view.from} records, but ${item.provenance.source} holds ${format.name} records`);
    }
    const result = rows(record, env);
    tally.add(result);
    for (const row of result.rows) yield { kind: "kept", provenance: item.provenance, value: row };
  });
}
