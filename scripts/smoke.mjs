// The smoke of a Node version the whole suite does not run on (CI: 22 and 26, see .ci/run): build, the demo,
// a convert of a zstd input of two frames into zstd Parquet, inspect and verify of the result, and a convert to
// S3 (s3rver) through the AWS SDK. Every step must exit 0 and write nothing on stderr but our own lines
// (`evalshard: ...`, or a JSON log line of a phase): a runtime or third-party warning fails the smoke.
//
// Usage, from a checkout after `npm ci`: npx -y -p node@22 -c 'node scripts/smoke.mjs'
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { zstdCompressSync } from "node:zlib";

const root = resolve(import.meta.dirname, "..");
const cli = join(root, "dist/cli/main.js");
const node = process.execPath;
const work = mkdtempSync(join(tmpdir(), "evalshard-smoke-"));
// npm and the build's tools run on this Node too: npm's shebang finds `node` on PATH.
const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ""}` };
const started = performance.now();

/**
 * Runs one step, asynchronously (s3rver answers from this process); fails the smoke on a non-zero exit or a
 * stderr line that is not ours.
 */
async function step(name, command, args, options = {}) {
  const t0 = performance.now();
  const child = spawn(command, args, { cwd: work, env, ...options });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise((done) => child.on("close", (status, signal) => done(status ?? signal)));
  const foreign = stderr.split("\n").filter((line) => line !== "" && !ours(line));
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  if (code !== 0 || foreign.length > 0) {
    console.error(`smoke: ${name} failed on Node ${process.version} (exit ${code}) after ${seconds} s`);
    if (foreign.length > 0) console.error(`smoke: stderr lines not ours:\n${foreign.join("\n")}`);
    console.error(`${stdout}\n${stderr}`.trim());
    process.exit(1);
  }
  console.log(`smoke: ${name}: ${seconds} s`);
  return stdout;
}

function ours(line) {
  if (line.startsWith("evalshard: ")) return true;
  try {
    return typeof JSON.parse(line).phase === "string";
  } catch {
    return false;
  }
}

try {
  console.log(`smoke: Node ${process.version}, in ${work}`);
  await step("build", "npm", ["run", "--silent", "build"], { cwd: root });
  await step("demo", node, [cli, "demo", "--out", join(work, "demo"), "--runs", "150"]);

  const text = readFileSync(join(root, "fixtures/records/sft-valid.ndjson"));
  const half = text.indexOf("\n", text.length >> 1) + 1;
  writeFileSync(join(work, "sft.ndjson.zst"), Buffer.concat([zstdCompressSync(text.subarray(0, half)), zstdCompressSync(text.subarray(half))]));
  await step("convert", node, [cli, "convert", join(work, "sft.ndjson.zst"), "--out", join(work, "sft")]);
  const manifest = JSON.parse(readFileSync(join(work, "sft/manifest.json"), "utf8"));
  const lines = text.toString("utf8").split("\n").filter((line) => line.trim() !== "").length;
  if (manifest.records_in !== lines) throw new Error(`convert read ${manifest.records_in} records of the two-frame input, expected ${lines}`);
  await step("inspect", node, [cli, "inspect", join(work, "sft")]);
  await step("verify", node, [cli, "verify", join(work, "sft")]);

  const S3rver = createRequire(join(root, "package.json"))("s3rver");
  const server = new S3rver({ address: "127.0.0.1", port: 0, directory: join(work, "s3"), silent: true, configureBuckets: [{ name: "smoke" }] });
  const { port } = await server.run();
  try {
    // s3rver's built-in account: not a secret, it exists only on loopback. The SDK reads the environment, as a user's.
    const s3env = { ...env, AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER", AWS_REGION: "us-east-1", AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}` };
    await step("S3 convert", node, [cli, "convert", join(root, "fixtures/records/sft-valid.ndjson"), "--out", "s3://smoke/sft"], { env: s3env });
  } finally {
    await server.close();
  }
  console.log(`smoke: Node ${process.version} passed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
