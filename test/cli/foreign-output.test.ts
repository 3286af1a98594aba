import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convert } from "../../src/index.js";
import { sftRecord } from "../helpers/records.js";
import { runCli } from "../helpers/run-cli.js";
import { S3RVER_KEY, s3rverCliEnv, startS3rver } from "../helpers/s3rver.js";
import type { S3Server } from "../helpers/s3rver.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 40: an --out holding anything evalshard did not write is refused (exit 2, naming one such file)
// unless --force; an empty folder or a dataset of evalshard's own is fine. An --out inside an input, or an
// input inside --out, is refused (exit 2, naming both).
const root = tempDir("evalshard-foreign-");
let server: S3Server;
beforeAll(async () => {
  server = await startS3rver("datasets");
});
afterAll(async () => server.stop());

const INPUT = join(root, "five.ndjson");
writeFileSync(INPUT, Array.from({ length: 5 }, (_, i) => `${JSON.stringify(sftRecord({ run_id: `run_${i}` }))}\n`).join(""));
const cli = (...args: string[]) => runCli(args);

/** The user's own folder, as the issue found it emptied: a README, a data file and a manifest of theirs. */
function usersFolder(name: string): { dir: string; files: Record<string, string> } {
  const dir = join(root, name);
  const files = { "README.md": "# my notes\n", "data/important.csv": "a,b\n1,2\n", "manifest.json": '{"mine": true}\n' };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir, files };
}
const contents = (dir: string, files: Record<string, string>) => Object.fromEntries(Object.keys(files).map((p) => [p, existsSync(join(dir, p)) ? readFileSync(join(dir, p), "utf8") : null]));

describe("--out holding the user's files", () => {
  it("is refused (exit 2, naming a file) and left as it was; --force writes there", { timeout: 60_000 }, async () => {
    const { dir, files } = usersFolder("users");
    const refused = await cli("convert", INPUT, "--out", dir);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/^evalshard: Output .*users holds "(README\.md|data|manifest\.json)", which evalshard did not write.*--force/m);
    expect(contents(dir, files)).toEqual(files);
    // The library refuses the same way.
    await expect(convert({ inputs: [INPUT], out: dir })).rejects.toThrow(/holds "README\.md", which evalshard did not write/);
    expect(contents(dir, files)).toEqual(files);

    const forced = await cli("convert", INPUT, "--out", dir, "--force");
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"))).toMatchObject({ records_out: 5 });
  });

  it("an empty folder, an evalshard dataset and its refused attempts are fine; a file added to a dataset is not", { timeout: 90_000 }, async () => {
    const dir = join(root, "ours");
    mkdirSync(dir);
    // No grace: what a publish leaves behind is the subject, not what readers see during it.
    expect((await cli("convert", INPUT, "--out", dir, "--snapshot-grace", "0")).code).toBe(0);
    expect((await cli("convert", INPUT, "--out", dir, "--snapshot-grace", "0")).code).toBe(0);
    // A refused attempt (_rejected/<time>-<hex>/) is evalshard's too.
    expect((await cli("convert", INPUT, "--out", dir, "--format", "rl")).code).toBe(3);
    expect((await cli("convert", INPUT, "--out", dir, "--snapshot-grace", "0")).code).toBe(0);

    writeFileSync(join(dir, "notes.txt"), "mine\n");
    const notes = await cli("convert", INPUT, "--out", dir);
    expect(notes.code).toBe(2);
    expect(notes.stderr).toMatch(/holds "notes\.txt"/);
    unlinkSync(join(dir, "notes.txt"));
    // Its name is evalshard's, but a real README.md where evalshard keeps its link is the user's.
    unlinkSync(join(dir, "README.md"));
    writeFileSync(join(dir, "README.md"), "# my own card\n");
    const card = await cli("convert", INPUT, "--out", dir);
    expect(card.code).toBe(2);
    expect(card.stderr).toMatch(/holds "README\.md"/);
    expect(readFileSync(join(dir, "README.md"), "utf8")).toBe("# my own card\n");
    // A folder of the user's named like evalshard's: judged by what is in it.
    rmSync(join(dir, "README.md"));
    symlinkSync(".evalshard-current/README.md", join(dir, "README.md"));
    mkdirSync(join(dir, "_rejected", "old-attempts"), { recursive: true });
    const rejected = await cli("convert", INPUT, "--out", dir);
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toMatch(/holds "_rejected\/old-attempts"/);
  });

  it("on S3: a prefix holding foreign objects is refused; an evalshard dataset there is fine", { timeout: 90_000 }, async () => {
    const env = s3rverCliEnv(server);
    const s3 = (...args: string[]) => runCli(args, { env, replaceEnv: true });
    const client = new S3Client({ endpoint: server.endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY } });
    await client.send(new PutObjectCommand({ Bucket: "datasets", Key: "users/notes/README.md", Body: "mine" }));
    const refused = await s3("convert", INPUT, "--out", "s3://datasets/users");
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/Output s3:\/\/datasets\/users holds "notes\/README\.md", which evalshard did not write/);

    expect((await s3("convert", INPUT, "--out", "s3://datasets/ours")).code).toBe(0);
    expect((await s3("convert", INPUT, "--out", "s3://datasets/ours", "--format", "rl")).code).toBe(3);
    expect((await s3("convert", INPUT, "--out", "s3://datasets/ours")).code).toBe(0);
    await client.send(new PutObjectCommand({ Bucket: "datasets", Key: "ours/data/extra.csv", Body: "mine" }));
    const added = await s3("convert", INPUT, "--out", "s3://datasets/ours");
    expect(added.code).toBe(2);
    expect(added.stderr).toMatch(/holds "data\/extra\.csv"/);
    expect((await s3("convert", INPUT, "--out", "s3://datasets/users", "--force")).code).toBe(0);
    client.destroy();
  });
});

describe("--out and the inputs", () => {
  it("an --out inside an input directory, or an input inside --out, is refused naming both; --force does not change that", { timeout: 60_000 }, async () => {
    const inputs = join(root, "exports");
    mkdirSync(inputs);
    writeFileSync(join(inputs, "a.ndjson"), readFileSync(INPUT));
    const inside = await cli("convert", inputs, "--out", join(inputs, "ds"), "--force");
    expect(inside.code).toBe(2);
    expect(inside.stderr).toContain(`--out "${join(inputs, "ds")}" is inside the input "${inputs}"`);
    expect(existsSync(join(inputs, "ds"))).toBe(false);
    // Through a symbolic link to the input folder, too.
    symlinkSync(inputs, join(root, "exports-link"));
    expect((await cli("convert", join(root, "exports-link"), "--out", join(inputs, "ds"))).code).toBe(2);

    const ds = join(root, "ds");
    expect((await cli("convert", inputs, "--out", ds)).code).toBe(0);
    const reread = await cli("convert", join(ds, "data"), "--out", ds);
    expect(reread.code).toBe(2);
    expect(reread.stderr).toContain(`The input "${join(ds, "data")}" is inside --out "${ds}"`);
    // A sibling whose name starts like the input's is not inside it.
    expect((await cli("convert", inputs, "--out", `${inputs}-ds`)).code).toBe(0);
  });
});
