// The two implementations agree: random rounds of every game and both schemes
// go through ../deal.js (JavaScript, from the spec) and through the Go code
// compiled to WebAssembly (globalThis.fairhold.verify, the JSON of
// `fairhold verify --json`). Skipped when there is no fairhold.wasm.
//
// FAIRHOLD_AGREE_SEED=n and FAIRHOLD_AGREE_ROUNDS=n change the random rounds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { checkVector, sha256Sync } from "../deal.js";
import { loadWasm } from "./wasm.mjs";

const { fairhold, why } = await loadWasm();
const SEED = Number(process.env.FAIRHOLD_AGREE_SEED || 17);
const ROUNDS = Number(process.env.FAIRHOLD_AGREE_ROUNDS || 200);

// mulberry32: a small seeded generator, so a failure can be replayed.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const vec = (id) => JSON.parse(readFileSync(new URL(`../../../../vectors/fairness/${id}.json`, import.meta.url), "utf8"));
const hex = (b) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
const fromHex = (s) => Uint8Array.from(s.match(/../g), (h) => parseInt(h, 16));
const CARDS = [..."23456789TJQKA"].flatMap((r) => [..."cdhs"].map((s) => r + s));

function randomRound(rand) {
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = (xs) => xs[int(0, xs.length - 1)];
  const bytes = (n) => Uint8Array.from({ length: n }, () => int(0, 255));
  const text = () => Array.from({ length: int(1, 12) }, () => pick(["a", "Z", "0", ":", " ", "é", "♠", "🂡", "-"])).join("");
  const v = { scheme: rand() < 0.2 ? "stake-compat" : "fairhold/v1" };
  const g = int(0, 3);
  if (g === 1) v.game = "casino-holdem";
  if (g === 2) Object.assign(v, { game: "live-casino-holdem", hands: int(1, 6) });
  if (g === 3) {
    const seats = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter(() => rand() < 0.6);
    while (seats.length < 2) seats.splice(0, seats.length, int(1, 5), int(6, 10));
    Object.assign(v, { game: "double-holdem", hands: seats.length, seats, button: pick(seats) });
  }
  if (!v.game) v.count = int(1, 52);
  const seed = bytes(32);
  v.server_seed = hex(seed);
  v.client_seeds = v.scheme === "stake-compat" ? [text()] : Array.from({ length: int(1, 4) }, text);
  v.nonce = String(rand() < 0.5 ? BigInt(int(0, 1000)) : (BigInt(int(0, 2 ** 31)) << 33n) | BigInt(int(0, 2 ** 31)));
  if (rand() < 0.5) v.commitment = rand() < 0.85 ? hex(sha256Sync(seed)) : hex(bytes(32));
  if (rand() < 0.25) {
    let anchor = seed;
    const k = int(1, 12);
    for (let i = 0; i < k; i++) anchor = sha256Sync(anchor);
    const c = int(0, 3);
    v.chain = c === 0 ? { anchor: hex(anchor), steps: k } : c === 1 ? { anchor: hex(anchor), max_steps: k + int(0, 5) }
      : c === 2 ? { anchor: hex(anchor), steps: k + 1 } : { anchor: hex(anchor), max_steps: k - 1 || 1 };
    if (c === 3 && k === 1) v.chain.anchor = hex(bytes(32));
  }
  if (v.scheme === "fairhold/v1" && rand() < 0.2) {
    const b = vec(pick(["v1-beacon-quicknet-1000", "v1-beacon-default-1000"]));
    v.beacon = b.beacon;
    if (rand() < 0.7) {
      const t = Date.parse(b.committed_at) + int(-120, 120) * 1000 + (rand() < 0.5 ? int(0, 999) : 0);
      v.committed_at = new Date(t).toISOString();
    }
  }
  if (rand() < 0.2) {
    v.used_nonces = Array.from({ length: int(0, 3) }, () => String(int(0, 5)));
    if (rand() < 0.5) v.used_nonces.push(v.nonce);
  }
  return v;
}

// claimFor makes the operator's claim from the JavaScript deal: all of it, the
// first cards only, or one card changed.
function claimFor(rand, v, cards) {
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const r = rand();
  if (r < 0.5) return [...cards];
  if (r < 0.75) return cards.slice(0, int(1, cards.length));
  const claim = [...cards];
  const p = int(0, claim.length - 1);
  const unused = CARDS.filter((c) => !claim.includes(c));
  claim[p] = v.scheme === "stake-compat" || unused.length === 0 ? CARDS.find((c) => c !== claim[p]) : unused[int(0, unused.length - 1)];
  if (v.scheme === "fairhold/v1" && unused.length === 0) return claim.slice(0, 1); // a full 52: keep it simple
  return claim;
}

// strings collects every card name in the Go result's cards object.
function strings(x, out = []) {
  if (typeof x === "string") out.push(x);
  else if (Array.isArray(x)) x.forEach((y) => strings(y, out));
  else if (x && typeof x === "object") Object.values(x).forEach((y) => strings(y, out));
  return out;
}

// sameLayout compares the Go result's cards by position (the shape `fairhold
// verify --json` prints: player or boxes, dealer, seats [{seat, cards}], flop,
// turn, river; a raw deal's cards in order) with deal.js's layout.
function sameLayout(g, e, where) {
  const l = e.layout;
  if (!l) {
    assert.deepEqual(strings(g), e.cards, where);
    return;
  }
  for (const k of ["dealer", "flop", "turn", "river"]) if (k in g) assert.deepEqual(g[k], l[k], `${k}: ${where}`);
  if ("player" in g) assert.deepEqual([g.player], l.hands, `player: ${where}`);
  if ("boxes" in g) assert.deepEqual(g.boxes, l.hands, `boxes: ${where}`);
  if ("seats" in g) {
    assert.equal(g.seats.length, l.seats.length, where);
    for (const s of g.seats) assert.deepEqual(s.cards, l.hands[l.seats.indexOf(s.seat)], `seat ${s.seat}: ${where}`);
  }
  assert.ok(["player", "boxes", "seats"].some((k) => k in g), `no hands in the Go result: ${where}`);
}

const GO_VERDICT = { success: "verified", failure: "failed", partial: "partial", malformed: "error" };

test(`JavaScript and Go agree on ${ROUNDS} random rounds (seed ${SEED})`, { skip: fairhold ? false : why }, async () => {
  const rand = rng(SEED);
  const seen = { success: 0, failure: 0, partial: 0 };
  for (let n = 0; n < ROUNDS; n++) {
    const v = randomRound(rand);
    const first = await checkVector(v, { verifyBeacon: fairhold.verifyBeacon });
    assert.notEqual(first.verdict, "malformed", `${first.reason} ${JSON.stringify(v)}`);
    if (first.expected) v.claimed_cards = claimFor(rand, v, first.expected.cards);
    const js = await checkVector(v, { verifyBeacon: fairhold.verifyBeacon });
    const go = JSON.parse(fairhold.verify(JSON.stringify(v)));
    const where = `round ${n}: ${JSON.stringify(v)}\nJS ${JSON.stringify(js.checks)}\nGo ${JSON.stringify(go.checks)}`;
    assert.equal(go.verdict, GO_VERDICT[js.verdict], where);
    assert.deepEqual((go.checks || []).map((c) => c.name), js.checks.map((c) => c.name), where);
    assert.deepEqual((go.checks || []).filter((c) => !c.ok).map((c) => c.name), js.failures, where);
    // The mismatch form is normative (docs/fairness.md §11.1): the same words.
    const jc = js.checks.find((c) => c.name === "cards");
    const gc = (go.checks || []).find((c) => c.name === "cards");
    if (jc && gc && !jc.ok && js.expected) assert.equal(gc.detail, jc.detail, where);
    if (go.mismatches) {
      assert.deepEqual(go.mismatches, js.mismatches.map(({ position, claimed, dealt }) => ({ position, claimed, dealt })), where);
    }
    for (const k of ["checked_positions", "unchecked_positions"]) if (k in go) assert.deepEqual(go[k], js[k], `${k}: ${where}`);
    if (js.expected && go.cards) {
      assert.deepEqual(strings(go.cards).sort(), [...js.expected.cards].sort(), where);
      sameLayout(go.cards, js.expected, where);
    }
    seen[js.verdict]++;
  }
  // The random rounds reach every verdict.
  for (const [k, c] of Object.entries(seen)) assert.ok(c > 0, `no ${k} round among ${ROUNDS}`);
});
