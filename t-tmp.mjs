import { convert } from "/work/wt/oneengine/dist/index.js";
import { rmSync } from "node:fs";
const N = Number(process.env.N); const split = {};
const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
for (let i = 0; i < N; i++) split[`s${i}`] = 1e-9;
split.last = 1 - N * 1e-9;
for (const workers of [0]) {
  rmSync("/tmp/oe/conv" + workers, { recursive: true, force: true });
  const t = performance.now();
  const r = await convert({ inputs: ["/work/wt/oneengine/fixtures/records/sft-valid.ndjson"], out: "/tmp/oe/conv" + workers, split, splitBy: "run", seats: "all", workers });
  console.log(workers, performance.now() - t, r.manifest.records_out, r.manifest.shards.map((s) => [s.path, s.rows, s.split]), r.manifest.split.splits.last, r.manifest.split.splits.s0);
}
