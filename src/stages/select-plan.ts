/**
 * Issue 19: which seats to train on (select.ts). null: the rule is not asked. The default keeps
 * agent seats only.
 */
export interface SelectionPlan {
  readonly seats: "agent" | "all";
  readonly agentKeys: readonly string[] | null;
  readonly roles: readonly string[] | null;
  readonly campaigns: readonly string[] | null;
  readonly minComposite: number | null;
  readonly minObjectiveRate: number | null;
  readonly topKPerScenario: number | null;
}

/** The selection when nothing is asked: agent seats only (issue 19: `aic` adversary seats are not one's own agent). */
export const SELECT_DEFAULTS: SelectionPlan = { seats: "agent", agentKeys: null, roles: null, campaigns: null, minComposite: null, minObjectiveRate: null, topKPerScenario: null };
