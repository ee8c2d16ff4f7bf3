// Every fairness vector (vectors/fairness/*.json) through the JavaScript
// dealing of ../deal.js: verdict, failing checks, malformed field and every
// derived value must equal the vector's.
//
// The drand BLS signature check is not in deal.js (opts.verifyBeacon). When the
// Go code compiled with GOOS=js GOARCH=wasm is present (../fairhold.wasm, or
// ../fairhold-wasm.js: the module gzip-compressed and base64-encoded), test/wasm.mjs
// loads it with wasm_exec.js (../wasm_exec.js, else $(go env GOROOT)/lib/wasm/)
// and its globalThis.fairhold.verifyBeacon checks the signatures; without it only
// the signature check is skipped. FAIRHOLD_WASM=file (.wasm or such a .js) loads
// another build instead.
//
// Run: node --test cmd/fairhold/web/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { checkVector } from "../deal.js";
import { loadWasm } from "./wasm.mjs";

const webDir = fileURLToPath(new URL("..", import.meta.url));
// FAIRHOLD_VECTORS=dir runs another directory of vectors.
const vectorDir = process.env.FAIRHOLD_VECTORS || join(webDir, "..", "..", "..", "vectors", "fairness");

const vectors = readdirSync(vectorDir)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => ({ file: f, v: JSON.parse(readFileSync(join(vectorDir, f), "utf8")) }));

const { fairhold, why: noWasm } = await loadWasm();
const verifyBeacon = fairhold ? fairhold.verifyBeacon : null;
const opts = verifyBeacon ? { verifyBeacon } : {};

test("the vectors are all there", () => {
  assert.ok(vectors.length >= (process.env.FAIRHOLD_VECTORS ? 1 : 87), `${vectors.length} vectors`);
  for (const { file, v } of vectors) assert.equal(`${v.id}.json`, file);
});

for (const { file, v } of vectors) {
  test(file, async (t) => {
    const r = await checkVector(v, opts);
    const beaconUnchecked = v.beacon !== undefined && !verifyBeacon && v.expect !== "malformed";

    if (v.expect === "malformed") {
      assert.equal(r.verdict, "malformed", r.reason);
      assert.equal(r.field, v.field, r.reason);
      assert.ok(r.reason.length > 0);
      return;
    }
    assert.equal(r.field, undefined);

    // Every check reported, in report order (vectors/README.md, Checks).
    const order = ["commitment", "chain", "beacon-signature", "beacon-after-commitment", "nonce-unused", "cards", "no-repeated-cards"];
    const names = r.checks.map((c) => c.name);
    assert.deepEqual(names, order.filter((n) => names.includes(n)));
    const want = [];
    if (v.commitment !== undefined) want.push("commitment");
    if (v.chain !== undefined) want.push("chain");
    if (v.beacon !== undefined) want.push("beacon-signature");
    if (v.beacon !== undefined && v.committed_at !== undefined) want.push("beacon-after-commitment");
    if (v.used_nonces !== undefined) want.push("nonce-unused");
    if (v.claimed_cards !== undefined) want.push("cards");
    if (v.scheme === "stake-compat") want.push("no-repeated-cards");
    assert.deepEqual(names, want);

    if (beaconUnchecked && !v.expected) {
      // A bad signature: the vector's cards are "not derivable", which only the
      // BLS check can tell. Everything but that check (and the cards it decides)
      // still has to agree.
      const beacon = r.checks.find((c) => c.name === "beacon-signature");
      assert.equal(beacon.ok, null);
      assert.deepEqual(r.unchecked, ["beacon-signature"]);
      const rest = (fs) => fs.filter((f) => f !== "beacon-signature" && f !== "cards");
      assert.deepEqual(rest(r.failures), rest(v.failures));
      await t.test("beacon signature and the verdict it decides", { skip: `not checked: ${noWasm}` }, () => {});
      return;
    }

    // A claim of fewer cards than the round deals, none included, is "partial"
    // (a vector may say "success" for it: every check passes); so is a round
    // whose server seed nothing binds (no commitment, no chain: §14).
    const count = v.expected ? v.expected.cards.length : v.count;
    const partial = (v.claimed_cards || []).length < count;
    const unbound = v.commitment === undefined && v.chain === undefined;
    assert.equal(r.unbound, unbound ? true : undefined, r.reason);
    assert.equal(r.verdict, (partial || unbound) && v.expect === "success" ? "partial" : v.expect, r.reason);
    if (r.expected) {
      const n = (v.claimed_cards || []).length;
      assert.deepEqual(r.unchecked_positions, partial ? r.expected.positions.slice(n) : undefined);
      assert.deepEqual(r.checked_positions, n > 0 ? r.expected.positions.slice(0, n) : undefined);
    }
    assert.deepEqual(r.failures, v.expect === "failure" ? v.failures : []);
    if (r.expected) {
      assert.equal(r.expected.positions.length, r.expected.cards.length);
      if (!v.game) assert.deepEqual(r.expected.positions, r.expected.cards.map((_, i) => `card ${i + 1}`));
    }
    for (const c of r.checks) assert.ok(typeof c.detail === "string" && c.detail.length > 0, c.name);

    if (v.expected) {
      // Exactly the vector's derived values: no more keys (but positions, which
      // older vectors lack), no fewer.
      const keys = Object.keys(r.expected).filter((k) => k in v.expected || k !== "positions");
      assert.deepEqual(keys.sort(), Object.keys(v.expected).sort());
      for (const k of Object.keys(v.expected)) assert.deepEqual(r.expected[k], v.expected[k], `expected.${k}`);
    } else {
      assert.equal(r.expected, null);
      assert.ok(r.failures.includes("beacon-signature"));
    }

    // A cards failure names each position in words, never an index.
    if (r.failures.includes("cards") && r.expected) {
      assert.ok(r.mismatches.length > 0);
      for (const m of r.mismatches) {
        assert.match(m.position, /^[a-z]/);
        assert.notEqual(m.claimed, m.dealt);
        assert.equal(m.shown, m.claimed);
      }
    } else {
      assert.deepEqual(r.mismatches, []);
    }

    if (beaconUnchecked) {
      assert.equal(r.checks.find((c) => c.name === "beacon-signature").ok, null);
      await t.test("beacon signature", { skip: `not checked: ${noWasm}` }, () => {});
    }
  });
}
