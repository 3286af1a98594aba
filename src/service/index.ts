// The bundled emulator of the agent-evaluation service (`evalshard serve`).
export { startEmulator } from "./start-emulator.js";
export { parseFaultSpec, FAULT_KINDS } from "./fault-spec.js";
export { INJECTIONS, hasInjection } from "./untrusted-text.js";
export { SCOPES, RL_DPO_EXPORT } from "./accounts.js";

export type { RunningEmulator, ServeInfo, EmulatorApiKey, EmulatorAccount } from "./start-emulator.js";
export type { EmulatorOptions, FaultTiming } from "./emulator-options.js";
export type { FaultKind, FaultRates } from "./fault-spec.js";
export type { AimedFault, FaultEvent } from "./fault-injector.js";
export type { PlatformConfig } from "./world-basis.js";
export type { Scope } from "./accounts.js";
