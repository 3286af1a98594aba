import { afterEach, describe, expect, it } from "vitest";
import { minFragment } from "../../src/core/secret-forms.js";
import { s3Error } from "../../src/output/s3-error.js";
import { ENCODINGS, leakedPiece } from "../helpers/secret-encodings.js";

const SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
const target = { url: "s3://bucket/key", bucket: "bucket", endpoint: "http://127.0.0.1:9" };

describe("an S3 error never shows the secret key, in any encoding", () => {
  const saved = process.env.AWS_SECRET_ACCESS_KEY;
  afterEach(() => {
    if (saved === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
    else process.env.AWS_SECRET_ACCESS_KEY = saved;
  });

  it.each(Object.keys(ENCODINGS))("%s: not in the message or the cause", (name) => {
    process.env.AWS_SECRET_ACCESS_KEY = SECRET;
    const echoed = (ENCODINGS[name] as (t: string) => string)(`secret=${SECRET}&x=1`);
    expect(leakedPiece(SECRET, echoed, minFragment(SECRET.length))).not.toBeNull();
    const error = s3Error(Object.assign(new Error(`SignatureDoesNotMatch: string to sign ${echoed}`), { name: "SignatureDoesNotMatch" }), "write", target);
    const shown = `${error.message}\n${String((error.cause as Error).message)}`;
    expect(shown).toContain("[REDACTED]");
    expect(leakedPiece(SECRET, shown, minFragment(SECRET.length))).toBeNull();
  });
});
