import type { SelectionPlan } from "./run-plan.js";

/** The selection when nothing is asked: agent seats only (issue 19: `aic` adversary seats are not one's own agent). */
export const SELECT_DEFAULTS: SelectionPlan = { seats: "agent", agentKeys: null, roles: null, campaigns: null, minComposite: null, minObjectiveRate: null, topKPerScenario: null };
