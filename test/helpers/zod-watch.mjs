// `node --import ./zod-watch.mjs ...`: prints "zod was loaded" on exit when the process's main thread
// imported zod (the module hooks run on their own thread and report each resolution of it here).
import { register } from "node:module";
import { MessageChannel } from "node:worker_threads";

const { port1, port2 } = new MessageChannel();
let loaded = false;
port1.on("message", () => (loaded = true));
port1.unref();
register(new URL("./zod-watch-hooks.mjs", import.meta.url), { data: { port: port2 }, transferList: [port2] });
process.on("exit", () => {
  if (loaded) process.stderr.write("zod was loaded\n");
});
