// Unit tests of ../deal.js beyond the vectors: card notation (docs/cards.md),
// position words, partial claims, the beacon verifier hook, malformed inputs
// the vectors do not cover, and the chain walk's SHA-256.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { checkVector, parseCards, positionName, sha256Sync } from "../deal.js";

const vector = (id) => JSON.parse(readFileSync(new URL(`../../../../vectors/fairness/${id}.json`, import.meta.url), "utf8"));
const strip = (v) => {
  const o = { ...v };
  for (const k of ["id", "description", "expect", "failures", "field", "expected"]) delete o[k];
  return o;
};

// ---------------------------------------------------------------------------
// parseCards: every notation docs/cards.md allows.

test("parseCards: canonical, lists and separators", () => {
  assert.deepEqual(parseCards("As Kd Th 2c"), ["As", "Kd", "Th", "2c"]);
  assert.deepEqual(parseCards("As,Kd, Th ,2c"), ["As", "Kd", "Th", "2c"]);
  assert.deepEqual(parseCards("As\tKd\nTh\r\n2c"), ["As", "Kd", "Th", "2c"]);
  assert.deepEqual(parseCards("  As   Kd  "), ["As", "Kd"]);
  assert.deepEqual(parseCards("AsKd10h"), ["As", "Kd", "Th"]);
  assert.deepEqual(parseCards("A♠K♦"), ["As", "Kd"]);
  assert.deepEqual(parseCards("Qc"), ["Qc"]);
});

test("parseCards: every card in every accepted spelling", () => {
  const ranks = "23456789TJQKA";
  const suits = { c: ["c", "C", "♣", "♧"], d: ["d", "D", "♦", "♢"], h: ["h", "H", "♥", "♡"], s: ["s", "S", "♠", "♤"] };
  for (const r of ranks) {
    const rankForms = r === "T" ? ["T", "t", "10"] : [r, r.toLowerCase()];
    for (const [canon, forms] of Object.entries(suits)) {
      for (const rf of rankForms) {
        for (const sf of forms) assert.deepEqual(parseCards(rf + sf), [r + canon], rf + sf);
      }
    }
  }
  // The full deck in canonical order, written together.
  const deck = [...ranks].flatMap((r) => [..."cdhs"].map((s) => r + s));
  assert.deepEqual(parseCards(deck.join("")), deck);
  assert.deepEqual(parseCards(deck.join(",")), deck);
});

test("parseCards: the docs/cards.md examples", () => {
  assert.deepEqual(parseCards("10d"), ["Td"]);
  assert.deepEqual(parseCards("10h 10♠"), ["Th", "Ts"]);
  assert.deepEqual(parseCards("ah"), ["Ah"]);
  assert.deepEqual(parseCards("AS"), ["As"]);
  assert.deepEqual(parseCards("A♠"), ["As"]);
});

test("parseCards: rejections name the token", () => {
  const rejects = (text, token, reason) =>
    assert.throws(() => parseCards(text), (e) => {
      assert.equal(e.token, token, `${text}: token`);
      assert.match(e.reason, reason, `${text}: reason`);
      return true;
    });
  rejects("", "", /empty/);
  rejects("   ", "", /empty/);
  rejects("As,,Kd", "", /empty/);
  rejects("A", "A", /no suit/);
  rejects("As K", "K", /no suit/);
  rejects("♠", "♠", /no rank/);
  rejects("1x", "1x", /unknown rank "1"/);
  rejects("11s", "11s", /unknown rank "11"/);
  rejects("Ax", "Ax", /unknown suit "x"/);
  rejects("As Xd", "Xd", /unknown rank "X"/);
  rejects("AsK", "AsK", /no suit/);
  rejects("Td 10d", "10d", /Td given twice/);
  rejects("AsKdAs", "AsKdAs", /As given twice/);
  rejects("A♠ as", "as", /As given twice/);
  rejects("A♠\uFE0F", "A♠\uFE0F", /unknown rank .*U\+FE0F/); // emoji presentation: not in docs/cards.md
  rejects("As\u00a0Kd", "As\u00a0Kd", /U\+00A0/); // a no-break space is not a separator
  assert.throws(() => parseCards(null));
});

test("parseCards: duplicates allowed on request (stake-compat draws with replacement)", () => {
  assert.deepEqual(parseCards("6h Kh 6h", { duplicates: true }), ["6h", "Kh", "6h"]);
});

// ---------------------------------------------------------------------------
// positionName: the words of the CLI and the page.

test("positionName: Casino Hold'em", () => {
  const words = Array.from({ length: 9 }, (_, i) => positionName("casino-holdem", { hands: 1 }, i));
  assert.deepEqual(words, [
    "player, first hole card", "player, second hole card",
    "dealer, first card", "dealer, second card",
    "flop, first card", "flop, second card", "flop, third card",
    "turn", "river",
  ]);
  assert.equal(positionName("casino-holdem", null, 8), "river");
  assert.equal(positionName("casino-holdem", {}, 9), "card 10");
});

test("positionName: live table, 3 boxes", () => {
  const layout = { hands: [["a", "b"], ["c", "d"], ["e", "f"]] };
  const words = Array.from({ length: 13 }, (_, i) => positionName("live-casino-holdem", layout, i));
  assert.deepEqual(words, [
    "box 1, first hole card", "box 1, second hole card",
    "box 2, first hole card", "box 2, second hole card",
    "box 3, first hole card", "box 3, second hole card",
    "dealer, first card", "dealer, second card",
    "flop, first card", "flop, second card", "flop, third card",
    "turn", "river",
  ]);
  assert.equal(positionName("live-casino-holdem", { hands: 2 }, 3), "box 2, second hole card");
});

test("positionName: Double Hold'em names seats, in dealing order", () => {
  const layout = { seats: [2, 5, 7, 9] }; // seats 2 5 7 9, button on 9
  const words = Array.from({ length: 17 }, (_, i) => positionName("double-holdem", layout, i));
  assert.deepEqual(words, [
    "seat 2, first hole card", "seat 2, second hole card", "seat 2, third hole card",
    "seat 5, first hole card", "seat 5, second hole card", "seat 5, third hole card",
    "seat 7, first hole card", "seat 7, second hole card", "seat 7, third hole card",
    "seat 9, first hole card", "seat 9, second hole card", "seat 9, third hole card",
    "flop, first card", "flop, second card", "flop, third card",
    "turn", "river",
  ]);
});

test("positionName: Double Hold'em seats 1, 3, 4, 7 with the button on 4 (§11.1's example)", () => {
  const layout = { seats: [7, 1, 3, 4] };
  assert.equal(positionName("double-holdem", layout, 0), "seat 7, first hole card");
  assert.equal(positionName("double-holdem", layout, 2), "seat 7, third hole card");
  assert.equal(positionName("double-holdem", layout, 3), "seat 1, first hole card");
  assert.equal(positionName("double-holdem", layout, 11), "seat 4, third hole card");
  assert.equal(positionName("double-holdem", layout, 12), "flop, first card");
  assert.equal(positionName("double-holdem", {}, 0), "card 1", "no seat numbers, no seat words");
});

test("positionName: raw deals are numbered from 1", () => {
  assert.equal(positionName(undefined, null, 0), "card 1");
  assert.equal(positionName("", null, 6), "card 7");
  assert.equal(positionName("texas-holdem", null, 51), "card 52");
});

// ---------------------------------------------------------------------------
// Claims: partial, mismatches in words.

test("a claim of the first cards only is partial, never success", async () => {
  const v = strip(vector("v1-worked-example"));
  const r = await checkVector({ ...v, claimed_cards: ["3s", "8h", "4h", "Th", "Tc"] });
  assert.equal(r.verdict, "partial");
  assert.deepEqual(r.failures, []);
  assert.equal(r.checks.find((c) => c.name === "cards").ok, true);
  assert.match(r.reason, /5 of the round's 9 cards/);
  assert.deepEqual(r.checked_positions, ["player, first hole card", "player, second hole card", "dealer, first card", "dealer, second card", "flop, first card"]);
  assert.deepEqual(r.unchecked_positions, ["flop, second card", "flop, third card", "turn", "river"]);
});

test("a claim without cards is partial: every position unchecked, no cards check (§14)", async () => {
  const v = strip(vector("v1-worked-example"));
  delete v.claimed_cards;
  const r = await checkVector(v);
  assert.equal(r.verdict, "partial");
  assert.deepEqual(r.failures, []);
  assert.equal(r.checks.find((c) => c.name === "cards"), undefined);
  assert.match(r.reason, /none of the round's 9 cards/);
  assert.equal(r.checked_positions, undefined);
  assert.deepEqual(r.unchecked_positions, ["player, first hole card", "player, second hole card", "dealer, first card", "dealer, second card",
    "flop, first card", "flop, second card", "flop, third card", "turn", "river"]);
  // A failed check still fails, partial or not.
  const bad = await checkVector({ ...v, commitment: "00".repeat(32) });
  assert.equal(bad.verdict, "failure");
  assert.deepEqual(bad.failures, ["commitment"]);
});

test("a seed nothing binds (no commitment, no chain) cannot be checked: partial, never success (§14)", async () => {
  const v = { ...strip(vector("v1-worked-example")), claimed_cards: ["3s", "8h", "4h", "Th", "Tc", "4s", "3d", "5d", "Qc"] };
  assert.equal((await checkVector(v)).verdict, "success", "bound by the commitment, every card claimed");
  const { commitment, ...free } = v;
  const r = await checkVector(free);
  assert.equal(r.verdict, "partial");
  assert.equal(r.unbound, true);
  assert.deepEqual(r.failures, []);
  assert.equal(r.checks.find((c) => c.name === "cards").ok, true, "the cards do follow from the seed");
  assert.equal(r.unchecked_positions, undefined, "every card was claimed");
  assert.match(r.reason, /^cannot check: nothing binds the server seed/);
  // A chain binds it as a commitment does.
  const c = strip(vector("v1-chain-search"));
  assert.equal(c.commitment, undefined);
  const chained = await checkVector(c);
  assert.equal(chained.unbound, undefined);
  assert.notEqual(chained.reason.slice(0, 12), "cannot check");
  // A failed check still fails.
  const bad = await checkVector({ ...free, claimed_cards: ["3s", "8h", "4h", "Th", "Tc", "4s", "3d", "5d", "Qd"] });
  assert.equal(bad.verdict, "failure");
  assert.equal(bad.unbound, true);
});

test("a partial claim with a wrong card fails, naming the position", async () => {
  const v = strip(vector("v1-worked-example"));
  const r = await checkVector({ ...v, claimed_cards: ["3s", "8h", "4h", "Th", "Ts"] });
  assert.equal(r.verdict, "failure");
  assert.deepEqual(r.failures, ["cards"]);
  assert.deepEqual(r.mismatches, [{ position: "flop, first card", claimed: "Ts", dealt: "Tc", shown: "Ts" }]);
  assert.equal(r.checks.find((c) => c.name === "cards").detail, "flop, first card: Ts claimed, Tc dealt");
});

test("the river replaced: 'river: As claimed, Ks dealt' (§11.1)", async () => {
  const r = await checkVector(vector("v1-claimed-river-replaced"));
  assert.deepEqual(r.mismatches, [{ position: "river", claimed: "As", dealt: "Ks", shown: "As" }]);
  assert.equal(r.checks.find((c) => c.name === "cards").detail, "river: As claimed, Ks dealt");
  assert.equal(r.checked_positions.length, 9);
  assert.equal(r.unchecked_positions, undefined);
});

test("claimed cards in other notations compare as cards", async () => {
  const v = strip(vector("v1-worked-example"));
  const r = await checkVector({ ...v, claimed_cards: ["3♠", "8H", "4h", "10h", "tc", "4s", "3d", "5d", "Q♣"] });
  assert.equal(r.verdict, "success", r.reason);
});

test("Double Hold'em mismatches name the seat", async () => {
  const v = vector("v1-double-gapped-seats");
  const claimed = [...v.expected.cards];
  [claimed[3], claimed[16]] = [claimed[16], claimed[3]]; // seat 5's first card and the river
  const r = await checkVector({ ...strip(v), claimed_cards: claimed });
  assert.deepEqual(r.mismatches.map((m) => m.position), ["seat 5, first hole card", "river"]);
});

test("stake-compat: a claim may repeat a card; a repeat is reported", async () => {
  const v = vector("stake-repeated-card");
  const r = await checkVector({ ...strip(v), claimed_cards: v.expected.cards });
  assert.equal(r.verdict, "failure");
  assert.deepEqual(r.failures, ["no-repeated-cards"]);
  assert.equal(r.checks.find((c) => c.name === "cards").ok, true);
  assert.equal(r.checks.find((c) => c.name === "no-repeated-cards").detail,
    "6h is dealt twice, card 5 and card 7; Ts is dealt twice, card 2 and card 8 (the scheme draws with replacement)");
});

// ---------------------------------------------------------------------------
// The beacon hook.

test("verifyBeacon gets the chain, round and lowercase hex signatures", async () => {
  const v = vector("v1-beacon-default-1000");
  const calls = [];
  const upper = { ...strip(v), beacon: { ...v.beacon, signature: v.beacon.signature.toUpperCase() } };
  const r = await checkVector(upper, { verifyBeacon: (...a) => (calls.push(a), true) });
  assert.deepEqual(calls, [["default", 1000, v.beacon.signature, v.beacon.previous_signature]]);
  assert.equal(r.verdict, "partial"); // every check passed; no claimed cards (§14)
  assert.equal((await checkVector({ ...upper, claimed_cards: v.expected.cards }, { verifyBeacon: () => true })).verdict, "success");
  assert.deepEqual(r.expected.cards, v.expected.cards);
  assert.deepEqual(r.unchecked, []);

  const q = vector("v1-beacon-quicknet-1000");
  const qcalls = [];
  await checkVector(q, { verifyBeacon: async (...a) => (qcalls.push(a), true) });
  assert.deepEqual(qcalls, [["quicknet", 1000, q.beacon.signature, ""]]);
});

test("a beacon that does not verify: no cards, 'not derivable'", async () => {
  const v = vector("v1-beacon-quicknet-bad-signature");
  for (const verifyBeacon of [async () => false, () => false, () => { throw new Error("boom"); }, () => "yes"]) {
    const r = await checkVector(v, { verifyBeacon });
    assert.equal(r.verdict, "failure");
    assert.deepEqual(r.failures, ["beacon-signature", "cards"]);
    assert.equal(r.expected, null);
    assert.match(r.checks.find((c) => c.name === "cards").detail, /not derivable/);
  }
});

test("without a verifier the signature is reported unchecked", async () => {
  const r = await checkVector(vector("v1-beacon-quicknet-1000"));
  assert.deepEqual(r.checks.find((c) => c.name === "beacon-signature"), {
    name: "beacon-signature", ok: null, detail: "unchecked: no BLS verifier available",
  });
  assert.deepEqual(r.unchecked, ["beacon-signature"]);
  assert.match(r.reason, /not checked: beacon-signature/);
});

test("beacon-after-commitment: strictly after, to the second", async () => {
  const v = strip(vector("v1-beacon-quicknet-1000")); // round 1000: 2023-08-23T15:59:24Z
  // With every card claimed: "success" when the beacon came after the commitment.
  v.claimed_cards = vector("v1-beacon-quicknet-1000").expected.cards;
  const at = async (t) => (await checkVector({ ...v, committed_at: t }, { verifyBeacon: () => true })).verdict;
  assert.equal(await at("2023-08-23T15:59:23Z"), "success");
  assert.equal(await at("2023-08-23T15:59:23.999999999Z"), "success");
  assert.equal(await at("2023-08-23T15:59:24Z"), "failure");
  assert.equal(await at("2023-08-23T15:59:24.001Z"), "failure");
  assert.equal(await at("2023-08-23T17:59:23+02:00"), "success");
  assert.equal(await at("2023-08-23T17:59:24+02:00"), "failure");
  assert.equal(await at("0001-01-01T00:00:00Z"), "success");
  // The last round of each chain that §7 allows is published by 9999-12-31T23:59:59Z.
  const last = { ...v, beacon: { ...v.beacon, round: 83903165811 }, committed_at: "9999-12-31T23:59:56Z" };
  assert.equal((await checkVector(last, { verifyBeacon: () => true })).verdict, "success");
  assert.equal((await checkVector({ ...last, committed_at: "9999-12-31T23:59:57Z" }, { verifyBeacon: () => true })).verdict, "failure");
});

// ---------------------------------------------------------------------------
// Chains.

test("chain search: the default bound, and the distance reported", async () => {
  const v = strip(vector("v1-chain-search"));
  const r = await checkVector({ ...v, chain: { anchor: v.chain.anchor } });
  assert.equal(r.verdict, "partial"); // no claimed cards
  assert.deepEqual(r.failures, []);
  assert.equal(r.checks[0].detail, "the link hashes to the anchor in 4 steps");
  const z = await checkVector({ ...v, chain: { anchor: v.chain.anchor, max_steps: 0 } });
  assert.deepEqual(z.failures, []);
  const seedIsAnchor = await checkVector({ ...v, chain: { anchor: v.server_seed, max_steps: 5 } });
  assert.deepEqual(seedIsAnchor.failures, ["chain"], "distance 0 is not a chain link");
});

test("sha256Sync equals crypto.subtle on 32-byte values", async () => {
  for (let i = 0; i < 200; i++) {
    const b = crypto.getRandomValues(new Uint8Array(32));
    if (i === 0) b.fill(0);
    if (i === 1) b.fill(255);
    const want = new Uint8Array(await crypto.subtle.digest("SHA-256", b));
    assert.deepEqual(sha256Sync(b), want);
  }
});

// ---------------------------------------------------------------------------
// Malformed inputs beyond the vectors (choices noted in docs/fairness-js-notes.md).

test("malformed inputs name their field", async () => {
  const base = strip(vector("v1-worked-example"));
  const beacon = strip(vector("v1-beacon-default-1000"));
  const quick = strip(vector("v1-beacon-quicknet-1000"));
  const dbl = strip(vector("v1-double-gapped-seats"));
  const stake = strip(vector("stake-reference"));
  const cases = [
    [{ ...base, colour: "red" }, "colour"],
    [{ ...base, scheme: undefined }, "scheme"],
    [{ ...base, hands: 2 }, "game"],
    [{ ...base, seats: [1, 2] }, "seats"],
    [{ ...base, button: 1 }, "button"],
    [{ ...base, game: undefined, hands: 1 }, "game"],
    [{ ...base, game: "live-casino-holdem", hands: undefined }, "game"],
    [{ ...base, game: "live-casino-holdem", hands: 0 }, "game"],
    [{ ...dbl, button: 3 }, "button"],
    [{ ...dbl, button: undefined }, "button"],
    [{ ...dbl, seats: undefined }, "seats"],
    [{ ...dbl, seats: [9, 7, 5, 2] }, "seats"],
    [{ ...dbl, seats: [2, 5, 7, 11] }, "seats"],
    [{ ...dbl, seats: [2, 2, 7, 9] }, "seats"],
    [{ ...dbl, seats: [9], button: 9, hands: 1 }, "seats"],
    [{ ...dbl, hands: 3 }, "game"],
    [{ ...base, count: 10 }, "count"],
    [{ ...base, game: undefined, hands: undefined, count: 0 }, "count"],
    [{ ...base, game: undefined, hands: undefined, count: undefined }, "count"],
    [{ ...base, game: undefined, hands: undefined, count: 1.5 }, "count"],
    [{ ...base, server_seed: base.server_seed + "00" }, "server_seed"],
    [{ ...base, server_seed: undefined }, "server_seed"],
    [{ ...base, client_seeds: Array(17).fill("x") }, "client_seeds"],
    [{ ...base, client_seeds: ["x".repeat(257)] }, "client_seeds"],
    [{ ...base, client_seeds: ["é".repeat(129)] }, "client_seeds"], // 258 bytes
    [{ ...base, client_seeds: ["ok", "\ud800"] }, "client_seeds"],
    [{ ...base, client_seeds: [7] }, "client_seeds"],
    [{ ...base, client_seeds: "player-seed-1" }, "client_seeds"],
    [{ ...base, nonce: 1 }, "nonce"],
    [{ ...base, nonce: "" }, "nonce"],
    [{ ...base, nonce: "+1" }, "nonce"],
    [{ ...base, nonce: "1e3" }, "nonce"],
    [{ ...base, commitment: "zz" }, "commitment"],
    [{ ...base, committed_at: "2023-08-23 15:00:00" }, "committed_at"],
    [{ ...base, committed_at: "2023-02-29T15:00:00Z" }, "committed_at"],
    [{ ...base, committed_at: "2023-08-23T15:00:00.1234567891Z" }, "committed_at"],
    [{ ...base, committed_at: "2023-08-23t15:00:00z" }, "committed_at"],
    [{ ...base, committed_at: "2016-12-31T23:59:60Z" }, "committed_at"],
    [{ ...base, chain: { anchor: "00" } }, "chain_anchor"],
    [{ ...base, chain: { anchor: base.commitment, steps: 1, max_steps: 5 } }, "chain_steps"],
    [{ ...base, chain: { anchor: base.commitment, steps: 0 } }, "chain_steps"],
    [{ ...base, chain: { anchor: base.commitment, max_steps: 10000001 } }, "chain_max_steps"],
    [{ ...base, chain: { anchor: base.commitment, depth: 1 } }, "chain"],
    [{ ...beacon, beacon: { ...beacon.beacon, previous_signature: "00" } }, "beacon_previous_signature"],
    [{ ...quick, beacon: { ...quick.beacon, previous_signature: beacon.beacon.previous_signature } }, "beacon_previous_signature"],
    [{ ...quick, beacon: { ...quick.beacon, round: 83903165812 } }, "beacon_round"],
    [{ ...beacon, beacon: { ...beacon.beacon, round: 8393562326 } }, "beacon_round"],
    [{ ...quick, beacon: { ...quick.beacon, round: "1000" } }, "beacon_round"],
    [{ ...quick, beacon: { ...quick.beacon, round: 1.5 } }, "beacon_round"],
    [{ ...quick, beacon: { ...quick.beacon, signature: beacon.beacon.signature } }, "beacon"],
    [{ ...quick, beacon: { ...quick.beacon, extra: 1 } }, "beacon"],
    [{ ...base, used_nonces: ["1", "01"] }, "used_nonces"],
    [{ ...base, claimed_cards: [] }, "claimed_cards"],
    [{ ...base, claimed_cards: Array(10).fill("As") }, "claimed_cards"],
    [{ ...base, claimed_cards: ["As Kd"] }, "claimed_cards"],
    [{ ...base, claimed_cards: ["As", "a♠"] }, "claimed_cards"],
    [{ ...stake, count: 65537 }, "count"],
    [{ ...stake, count: 0 }, "count"],
    [null, "scheme"],
  ];
  for (const [v, field] of cases) {
    const r = await checkVector(v);
    assert.equal(r.verdict, "malformed", JSON.stringify(v));
    assert.equal(r.field, field, `${r.reason} (${JSON.stringify(v)?.slice(0, 200)})`);
  }
  // Accepted edge cases.
  for (const v of [
    { ...base, client_seeds: ["é".repeat(128)] }, // 256 bytes
    { ...base, client_seeds: Array(16).fill("x") },
    { ...base, server_seed: base.server_seed.toUpperCase(), commitment: base.commitment.toUpperCase() },
    { ...base, hands: undefined },
    { ...base, count: undefined },
    { ...dbl, hands: undefined },
    { ...stake, count: 53, claimed_cards: undefined }, // draws with replacement: up to 65,536 (§15)
    { ...stake, count: 65536, claimed_cards: undefined },
  ]) {
    const r = await checkVector(v);
    assert.notEqual(r.verdict, "malformed", r.reason);
  }
});

test("without WebCrypto (plain http from another host) the error says why", async () => {
  const saved = Object.getOwnPropertyDescriptor(globalThis, "crypto");
  Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true, writable: true });
  try {
    await assert.rejects(checkVector(strip(vector("v1-worked-example"))), /crypto\.subtle\) is not available: open the page over https/);
    // Malformed input is still reported as such.
    assert.equal((await checkVector({ ...strip(vector("v1-worked-example")), nonce: "-1" })).field, "nonce");
  } finally {
    Object.defineProperty(globalThis, "crypto", saved);
  }
  assert.equal((await checkVector(vector("v1-worked-example"))).verdict, "partial");
});
