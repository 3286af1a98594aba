import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { waitForSetupPhase } from "./setup-phase.js";

const ENSURE = new URL("../../scripts/ensure-chromium.mjs", import.meta.url).pathname;

// `npm test` installs Chromium while vitest starts: wait for it rather than run a second apt-get beside its own.
await waitForSetupPhase("chromium");

/** Debian's Chromium, installed by the project's script when missing (found at once when `npm test` installed it). */
export function chromiumBinary(): string {
  return execFileSync(process.execPath, [ENSURE], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

/**
 * Chromium's own requests, which no flag of Debian's build switches off: seen (and only these) while it loads an
 * empty page with the flags below. A page's own request to any other host, Google's fonts included, is recorded.
 */
const BROWSER_OWN = ["update.googleapis.com", "accounts.google.com", "clients2.google.com"];

/**
 * A proxy on loopback that Chromium is told to send every request through: it answers none (403, or the
 * socket closed for a CONNECT) and records each, so a page that tries to reach anywhere is seen doing so.
 */
export async function recordingProxy(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const record = (request: string) => {
    if (!BROWSER_OWN.some((host) => request.includes(`//${host}/`) || request.includes(` ${host}:`))) requests.push(request);
  };
  const server: Server = createServer((req, res) => {
    record(`${req.method} ${req.url}`);
    res.writeHead(403).end();
  });
  server.on("connect", (req, socket) => {
    record(`CONNECT ${req.url}`);
    socket.on("error", () => {});
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Runs headless Chromium on a local page with every request routed to `proxy`; resolves with its stdout. */
async function chromium(bin: string, page: string, proxy: string, args: readonly string[]): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), "evalshard-chromium-"));
  const flags = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--hide-scrollbars",
    `--user-data-dir=${profile}`,
    `--proxy-server=${proxy}`,
    "--proxy-bypass-list=<-loopback>",
    // Chromium's own traffic (updates, sync, safe browsing) is not the page's: switched off so the proxy sees only the page.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--no-first-run",
    "--no-default-browser-check",
    ...args,
    pathToFileURL(page).href,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(bin, flags, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`chromium exited ${code}: ${err.slice(-2000)}`))));
  });
}

/** The page as the browser parsed it (its DOM, serialised), and a screenshot of it. */
export async function renderPage(bin: string, page: string, proxy: string, screenshot: string, size = "900,2400"): Promise<string> {
  await chromium(bin, page, proxy, [`--screenshot=${screenshot}`, `--window-size=${size}`]);
  return chromium(bin, page, proxy, ["--dump-dom", "--virtual-time-budget=2000"]);
}
