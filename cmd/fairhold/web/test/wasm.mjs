// Loads the Go code compiled to WebAssembly (cmd/fairhold/web/fairhold.wasm or
// fairhold-wasm.js, built from cmd/fairhold/wasm) in Node, for the tests that need it: the BLS
// beacon check (vectors.test.mjs) and the agreement of the two dealers
// (agreement.test.mjs). Not a test file itself.
import { readFileSync, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

const webDir = fileURLToPath(new URL("..", import.meta.url));
let started = null;

// loadWasm starts the build (or $FAIRHOLD_WASM, a .wasm or such a .js) once and returns
// {fairhold: globalThis.fairhold}, or {fairhold: null, why} when there is no
// WebAssembly build to load.
export function loadWasm() {
  started ??= start();
  return started;
}

async function start() {
  // The build is fairhold.wasm, or fairhold-wasm.js (the module gzip-compressed
  // and base64-encoded in globalThis.fairholdWasmGzip, a classic script that a
  // page saved to disk can load from file://).
  const wasm = [process.env.FAIRHOLD_WASM, join(webDir, "fairhold.wasm"), join(webDir, "fairhold-wasm.js")]
    .find((f) => f && existsSync(f));
  if (!wasm) return { fairhold: null, why: `no ${process.env.FAIRHOLD_WASM || "cmd/fairhold/web/fairhold.wasm or fairhold-wasm.js"}` };
  let exec = join(webDir, "wasm_exec.js");
  if (!existsSync(exec)) {
    let root = "";
    try {
      root = execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim();
    } catch {
      return { fairhold: null, why: "fairhold.wasm present but no wasm_exec.js (web/ or go env GOROOT)" };
    }
    exec = [join(root, "lib", "wasm", "wasm_exec.js"), join(root, "misc", "wasm", "wasm_exec.js")].find(existsSync);
    if (!exec) return { fairhold: null, why: `fairhold.wasm present but no wasm_exec.js under ${root}` };
  }
  await import(pathToFileURL(exec).href); // defines globalThis.Go
  const go = new globalThis.Go();
  let bytes = readFileSync(wasm);
  if (wasm.endsWith(".js")) {
    await import(pathToFileURL(wasm).href);
    if (typeof globalThis.fairholdWasmGzip !== "string") throw new Error(`${wasm} did not set globalThis.fairholdWasmGzip`);
    bytes = gunzipSync(Buffer.from(globalThis.fairholdWasmGzip, "base64"));
  }
  const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
  go.run(instance); // resolves when the Go program exits; it stays up serving calls
  for (let i = 0; i < 200 && !globalThis.fairhold?.verifyBeacon; i++) await new Promise((r) => setTimeout(r, 50));
  if (typeof globalThis.fairhold?.verifyBeacon !== "function") {
    throw new Error("fairhold.wasm started but did not register globalThis.fairhold.verifyBeacon");
  }
  return { fairhold: globalThis.fairhold, why: "" };
}
