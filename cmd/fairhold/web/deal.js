// deal.js — the second, independent implementation of fairhold's dealing,
// written from docs/fairness.md (the normative spec), docs/cards.md and
// vectors/README.md alone, never from the Go code: agreeing with the Go
// verifier on every vector is what shows the spec is complete.
//
// An ES module with no imports. It needs only globalThis.crypto.subtle
// (SHA-256, HMAC-SHA256), so it runs in browsers and in Node 20.
//
//   checkVector(v, opts)          -> Promise<Result>   (vectors/README.md, "Checks")
//   positionName(game, layout, i) -> "box 2, second hole card", "river", "card 7"
//   parseCards(text, opts)        -> ["As", "Td", ...]  (docs/cards.md, "Notation")
//
// Section numbers "§n" refer to docs/fairness.md.

const utf8 = new TextEncoder();

// WebCrypto exists only in a secure context: https, localhost, or a saved
// file. Over plain http from another host crypto.subtle is undefined; say so
// rather than fail with a TypeError.
function webCrypto() {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) {
    throw new Error("WebCrypto (crypto.subtle) is not available: open the page over https, from localhost, or as a saved file");
  }
  return subtle;
}

// ---------------------------------------------------------------------------
// §1 notation: hex, big-endian integers, concatenation.

const HEX = "0123456789abcdef";

function toHex(bytes) {
  let s = "";
  for (const b of bytes) s += HEX[b >> 4] + HEX[b & 15];
  return s;
}

// fromHex returns the bytes of a hex string (either case, §1) or null.
function fromHex(s) {
  if (typeof s !== "string" || s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) return null;
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.substr(2 * i, 2), 16);
  return out;
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function u8(x) {
  return Uint8Array.of(x);
}

function u32be(x) {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, x);
  return b;
}

function u64be(x) {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(x));
  return b;
}

function equalBytes(a, b) {
  if (a.length !== b.length) return false;
  let d = 0; // no early exit (§3 asks for a constant-time comparison)
  for (let i = 0; i < a.length; i++) d |= a[i] ^ b[i];
  return d === 0;
}

async function sha256(bytes) {
  return new Uint8Array(await webCrypto().digest("SHA-256", bytes));
}

async function hmacKey(keyBytes) {
  return webCrypto().importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function hmac(key, message) {
  return new Uint8Array(await webCrypto().sign("HMAC", key, message));
}

// ---------------------------------------------------------------------------
// §2 and docs/cards.md: card index = 4*rank + suit.

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";

function cardName(i) {
  return RANKS[i >> 2] + SUITS[i & 3];
}

// Accepted suit spellings (docs/cards.md, Notation): letters in either case,
// black and white symbols.
const SUIT_OF = {
  c: 0, C: 0, "♣": 0, "♧": 0,
  d: 1, D: 1, "♦": 1, "♢": 1,
  h: 2, H: 2, "♥": 2, "♡": 2,
  s: 3, S: 3, "♠": 3, "♤": 3,
};

class CardError extends Error {
  constructor(token, reason) {
    super(`card ${JSON.stringify(token)}: ${reason}`);
    this.token = token;
    this.reason = reason;
  }
}

// quote shows a token part, invisible characters as U+XXXX ("A♠️" holds U+FE0F).
function quote(t) {
  if (!/[\p{C}\p{M}\p{Z}]/u.test(t)) return JSON.stringify(t);
  const codes = [...t].map((c) => "U+" + c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0"));
  return `${JSON.stringify(t)} (${codes.join(" ")})`;
}

// readCard reads one card at s[pos..]: returns [index, next position] or
// throws a CardError naming token. Rank "10" or one of 2-9 T J Q K A (either
// case), then one suit character.
function readCard(s, pos, token) {
  let rank;
  let p = pos;
  if (s.startsWith("10", p)) {
    rank = 8;
    p += 2;
  } else {
    const c = s[p];
    if (c === undefined) throw new CardError(token, "empty card");
    rank = RANKS.indexOf(c.toUpperCase());
    if (rank < 0) {
      if (c in SUIT_OF) throw new CardError(token, "no rank");
      // The unknown rank as written: a run of digits ("11"), or one character.
      const m = /^(?:[0-9]+|.)/u.exec(s.slice(p));
      throw new CardError(token, `unknown rank ${quote(m[0])}`);
    }
    p += 1;
  }
  const cp = s.codePointAt(p);
  if (cp === undefined) throw new CardError(token, "no suit");
  const ch = String.fromCodePoint(cp);
  if (!(ch in SUIT_OF)) throw new CardError(token, `unknown suit ${quote(ch)}`);
  return [4 * rank + SUIT_OF[ch], p + ch.length];
}

// parseCard parses exactly one card (docs/cards.md card.Parse).
function parseCard(text) {
  if (typeof text !== "string") throw new CardError(String(text), "not a string");
  const [i, end] = readCard(text, 0, text);
  if (end !== text.length) throw new CardError(text, `unexpected ${JSON.stringify(text.slice(end))} after the card`);
  return i;
}

// parseCards parses a list of cards (docs/cards.md card.ParseList): separated
// by spaces, commas, tabs or newlines, or written together ("AsKd10h").
// Returns canonical names in order. Throws an Error with .token and .reason
// for a bad token, or a card given twice (unless opts.duplicates is true: the
// stake-compat scheme draws with replacement, so a claim may repeat a card).
export function parseCards(text, opts = {}) {
  if (typeof text !== "string") throw new CardError(String(text), "not a string");
  const trimmed = text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "");
  // Runs of white space are one separator; a comma with white space around it
  // is one separator; two commas with nothing between them leave an empty token.
  const tokens = trimmed === "" ? [""] : trimmed.split(/[ \t\r\n]*,[ \t\r\n]*|[ \t\r\n]+/);
  const out = [];
  const seen = new Map();
  for (const token of tokens) {
    if (token === "") throw new CardError(token, "empty card");
    let p = 0;
    while (p < token.length) {
      const [i, next] = readCard(token, p, token);
      p = next;
      if (seen.has(i) && !opts.duplicates) {
        const e = new CardError(token, `${cardName(i)} given twice (${JSON.stringify(seen.get(i))} and ${JSON.stringify(token)})`);
        e.duplicate = cardName(i);
        throw e;
      }
      seen.set(i, token);
      out.push(i);
    }
  }
  return out.map(cardName);
}

// ---------------------------------------------------------------------------
// §11 dealing order: the games, their card counts and their layouts.

const GAMES = ["casino-holdem", "live-casino-holdem", "double-holdem"];

function gameCount(game, hands) {
  return game === "double-holdem" ? 3 * hands + 5 : 2 * hands + 7;
}

// dealingSeats returns the occupied seats in dealing order (§11): starting at
// the next higher occupied seat after the button, wrapping, ending with the
// button.
function dealingSeats(seats, button) {
  const k = seats.indexOf(button); // seats are in increasing order
  return seats.slice(k + 1).concat(seats.slice(0, k + 1));
}

// layoutOf assigns the dealt cards (names) to positions (§11), in the shape of
// a vector's expected.layout.
function layoutOf(game, cards, hands, order) {
  const per = game === "double-holdem" ? 3 : 2;
  const out = { hands: [] };
  for (let h = 0; h < hands; h++) out.hands.push(cards.slice(per * h, per * h + per));
  let o = per * hands;
  if (game === "double-holdem") out.seats = order;
  else {
    out.dealer = cards.slice(o, o + 2);
    o += 2;
  }
  out.flop = cards.slice(o, o + 3);
  out.turn = cards[o + 3];
  out.river = cards[o + 4];
  return out;
}

const ORDINAL = ["first", "second", "third"];

// positionName names position i (0-based) of the dealt sequence in the words of
// §11.1 ("river: Qd claimed, Qc dealt"). layout is a vector's expected.layout
// ({hands: [...], seats: [...]}) or {hands: n, seats: [...]}, where seats are
// Double Hold'em's seat numbers in dealing order (from the button's left).
// Without a game, beyond the game's cards, or for Double Hold'em without its
// seats, the position is "card i+1".
export function positionName(game, layout, i) {
  const raw = `card ${i + 1}`;
  if (!GAMES.includes(game) || !Number.isInteger(i) || i < 0) return raw;
  const lay = layout || {};
  const seats = Array.isArray(lay.seats) ? lay.seats : null;
  let hands = Array.isArray(lay.hands) ? lay.hands.length : lay.hands;
  if (game === "casino-holdem") hands = 1;
  if (game === "double-holdem") {
    if (!seats) return raw; // the words name seat numbers
    hands = seats.length;
  }
  if (!Number.isInteger(hands) || hands < 1) return raw;
  const per = game === "double-holdem" ? 3 : 2;
  if (i < per * hands) {
    const h = Math.floor(i / per);
    const card = `${ORDINAL[i % per]} hole card`;
    if (game === "casino-holdem") return `player, ${card}`;
    if (game === "live-casino-holdem") return `box ${h + 1}, ${card}`;
    return `seat ${seats[h]}, ${card}`;
  }
  let o = i - per * hands;
  if (game !== "double-holdem") {
    if (o < 2) return `dealer, ${ORDINAL[o]} card`;
    o -= 2;
  }
  if (o < 3) return `flop, ${ORDINAL[o]} card`;
  if (o === 3) return "turn";
  if (o === 4) return "river";
  return raw;
}

// ---------------------------------------------------------------------------
// Input validation (vectors/README.md: "expect = malformed ... names field").

class Malformed extends Error {
  constructor(field, reason) {
    super(`${field}: ${reason}`);
    this.field = field;
    this.reason = reason;
  }
}

const bad = (field, reason) => {
  throw new Malformed(field, reason);
};

const U64_MAX = (1n << 64n) - 1n;

// parseU64 reads a §5 decimal nonce: no sign, no leading zeros, 0..2^64-1.
function parseU64(s, field) {
  if (typeof s !== "string") bad(field, "a nonce is a decimal string");
  if (!/^(0|[1-9][0-9]*)$/.test(s)) bad(field, `${JSON.stringify(s)} is not a decimal number without sign or leading zeros`);
  const n = BigInt(s);
  if (n > U64_MAX) bad(field, `${s} is above 18446744073709551615`);
  return n;
}

function parseHex32(s, field) {
  if (typeof s !== "string") bad(field, "not a hex string");
  if (s.length % 2 !== 0) bad(field, `odd number of hex digits (${s.length})`);
  const b = fromHex(s);
  if (b === null) bad(field, "not hex");
  if (b.length !== 32) bad(field, `${b.length} bytes, want 32`);
  return b;
}

// parseTime reads an RFC 3339 time (committed_at: "T" and "Z" in upper case,
// 0..59 seconds, 1..9 fraction digits) into whole Unix seconds, dropping the
// fraction: a round's time is whole seconds, so time(round) > committed_at
// exactly when time(round) > its whole seconds (§7, check beacon-after-commitment).
function parseTime(s, field) {
  const m = typeof s === "string" &&
    /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|([+-])(\d{2}):(\d{2}))$/.exec(s);
  if (!m) bad(field, `${JSON.stringify(s)} is not an RFC 3339 time`);
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const mdays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 || se > 59) {
    bad(field, `${JSON.stringify(s)} is not a valid time`);
  }
  let off = 0;
  if (m[8] !== "Z") {
    if (Number(m[10]) > 23 || Number(m[11]) > 59) bad(field, `${JSON.stringify(s)} has an invalid offset`);
    off = (m[9] === "+" ? 1 : -1) * (Number(m[10]) * 3600 + Number(m[11]) * 60);
  }
  // Days from 1970-01-01 (proleptic Gregorian; Date.UTC would map years 0..99 to 19xx).
  const yy = mo <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  const days = era * 146097 + doe - 719468;
  return { seconds: days * 86400 + h * 3600 + mi * 60 + se - off };
}

// §7: the two drand chains.
const DRAND = {
  quicknet: { genesis: 1692803367, period: 3, sigLen: 48, maxRound: 83903165811, chained: false },
  default: { genesis: 1595431050, period: 30, sigLen: 96, maxRound: 8393562325, chained: true },
};

// §6: both chain bounds are 1..10,000,000; max_steps 0 or absent is the default.
const CHAIN_BOUND = 10000000;
const CHAIN_DEFAULT_MAX = 1000000;

const KNOWN_FIELDS = new Set([
  "id", "description", "expect", "failures", "field", "expected", // ignored on input
  "scheme", "game", "hands", "seats", "button", "server_seed", "client_seeds", "nonce",
  "commitment", "committed_at", "chain", "beacon", "used_nonces", "count", "claimed_cards",
]);

// A JS string that is not Unicode text (UTF-8 has no encoding for it).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
const isInt = (x) => typeof x === "number" && Number.isInteger(x);

// parseInput checks every input field and returns the parsed round, or throws
// Malformed naming the field.
function parseInput(v) {
  if (!isObject(v)) bad("scheme", "the round is not a JSON object");
  for (const k of Object.keys(v)) if (!KNOWN_FIELDS.has(k)) bad(k, "unknown field");

  const r = {};
  if (v.scheme !== "fairhold/v1" && v.scheme !== "stake-compat") {
    bad("scheme", `unknown scheme ${JSON.stringify(v.scheme)} (fairhold/v1 or stake-compat)`);
  }
  r.scheme = v.scheme;

  // §11: the game, its hands (boxes or players) and, for Double Hold'em, the
  // seats (increasing, the client seeds' order, §4) and the button.
  if (v.game === undefined) {
    if (v.hands !== undefined) bad("game", "hands given without a game");
  } else if (!GAMES.includes(v.game)) {
    bad("game", `unknown game ${JSON.stringify(v.game)}`);
  }
  if (v.game !== "double-holdem") {
    if (v.seats !== undefined) bad("seats", "seats are for double-holdem only");
    if (v.button !== undefined) bad("button", "a button is for double-holdem only");
  }
  if (v.game !== undefined) {
    r.game = v.game;
    if (v.hands !== undefined && !isInt(v.hands)) bad("game", "hands is not an integer");
    if (v.game === "casino-holdem") {
      if (v.hands !== undefined && v.hands !== 1) bad("game", `casino-holdem has 1 box, not ${v.hands}`);
      r.hands = 1;
    } else if (v.game === "live-casino-holdem") {
      if (v.hands === undefined) bad("game", "live-casino-holdem needs hands, the boxes in play (1..6)");
      if (v.hands < 1 || v.hands > 6) bad("game", `live-casino-holdem has 1..6 boxes in play, not ${v.hands}`);
      r.hands = v.hands;
    } else {
      const seats = v.seats;
      if (!Array.isArray(seats) || !seats.every(isInt)) bad("seats", "double-holdem needs seats, the occupied seat numbers");
      if (seats.length < 2 || seats.length > 10) bad("seats", `double-holdem has 2..10 players, not ${seats.length}`);
      if (seats.some((x) => x < 1 || x > 10)) bad("seats", "seat numbers are 1..10");
      if (seats.some((x, i) => i > 0 && x <= seats[i - 1])) bad("seats", "seats are listed once each, in increasing order");
      if (v.hands !== undefined && v.hands !== seats.length) bad("game", `hands ${v.hands} but ${seats.length} seats`);
      if (!isInt(v.button) || !seats.includes(v.button)) bad("button", "the button is not on an occupied seat");
      r.hands = seats.length;
      r.order = dealingSeats(seats, v.button);
    }
  }

  // Number of cards (§11): with a game, the game's count; without, 1..52 for
  // fairhold/v1 (one deck, §10) and 1..65,536 draws for stake-compat (§15).
  if (r.game) {
    const want = gameCount(r.game, r.hands);
    if (v.count !== undefined && v.count !== want) bad("count", `${r.game} with ${r.hands} hands deals ${want} cards, not ${v.count}`);
    r.count = want;
  } else {
    const max = r.scheme === "stake-compat" ? 65536 : 52;
    if (!isInt(v.count) || v.count < 1 || v.count > max) bad("count", `count must be 1..${max}, not ${JSON.stringify(v.count)}`);
    r.count = v.count;
  }

  // §3 server seed: 32 bytes.
  r.seed = parseHex32(v.server_seed, "server_seed");

  // §4 client input: 1..16 seeds of 1..256 UTF-8 bytes; stake-compat takes one (§15).
  const cs = v.client_seeds;
  if (!Array.isArray(cs) || cs.length === 0) bad("client_seeds", "no client seed");
  if (cs.length > 16) bad("client_seeds", `${cs.length} client seeds, at most 16`);
  if (r.scheme === "stake-compat" && cs.length !== 1) bad("client_seeds", `stake-compat takes exactly one client seed, not ${cs.length}`);
  r.clientSeeds = cs.map((s, i) => {
    if (typeof s !== "string") bad("client_seeds", `client seed ${i + 1} is not a string`);
    if (LONE_SURROGATE.test(s)) bad("client_seeds", `client seed ${i + 1} is not valid Unicode (lone surrogate)`);
    const b = utf8.encode(s);
    if (b.length < 1 || b.length > 256) bad("client_seeds", `client seed ${i + 1} has ${b.length} bytes, want 1..256`);
    return b;
  });

  // §5 nonce.
  r.nonce = parseU64(v.nonce, "nonce");

  // §3 commitment.
  if (v.commitment !== undefined) r.commitment = parseHex32(v.commitment, "commitment");
  if (v.committed_at !== undefined) r.committedAt = parseTime(v.committed_at, "committed_at");

  // §6 chain: anchor and steps (exact) or max_steps (search bound).
  if (v.chain !== undefined) {
    const c = v.chain;
    if (!isObject(c)) bad("chain", "not an object");
    for (const k of Object.keys(c)) if (!["anchor", "steps", "max_steps"].includes(k)) bad("chain", `unknown field ${k}`);
    r.chain = { anchor: parseHex32(c.anchor, "chain_anchor") };
    if (c.steps !== undefined) {
      if (c.max_steps !== undefined) bad("chain_steps", "give steps (exact distance) or max_steps (search bound), not both");
      if (!isInt(c.steps) || c.steps < 1 || c.steps > CHAIN_BOUND) bad("chain_steps", `steps must be 1..10000000, not ${c.steps}`);
      r.chain.steps = c.steps;
    } else {
      const m = c.max_steps === undefined ? 0 : c.max_steps;
      if (!isInt(m) || m < 0 || m > CHAIN_BOUND) bad("chain_max_steps", `max_steps must be 1..10000000 (0: the default), not ${m}`);
      r.chain.maxSteps = m === 0 ? CHAIN_DEFAULT_MAX : m;
    }
  }

  // §7 beacon.
  if (v.beacon !== undefined) {
    if (r.scheme === "stake-compat") bad("beacon", "stake-compat mixes in no beacon");
    const b = v.beacon;
    if (!isObject(b)) bad("beacon", "not an object");
    for (const k of Object.keys(b)) {
      if (!["chain", "round", "signature", "previous_signature"].includes(k)) bad("beacon", `unknown field ${k}`);
    }
    const info = DRAND[b.chain];
    if (typeof b.chain !== "string" || !Object.hasOwn(DRAND, b.chain)) bad("beacon_chain", `unknown drand chain ${JSON.stringify(b.chain)} (quicknet or default)`);
    if (typeof b.round !== "number" || !Number.isInteger(b.round) || b.round < 1 || b.round > info.maxRound) {
      bad("beacon_round", `round must be 1..${info.maxRound} (published by 9999-12-31T23:59:59Z), not ${b.round}`);
    }
    const sig = fromHex(b.signature);
    if (sig === null) bad("beacon", "the signature is not hex");
    if (sig.length !== info.sigLen) bad("beacon", `a ${b.chain} signature has ${info.sigLen} bytes, not ${sig.length}`);
    let prev = null;
    if (info.chained) {
      prev = fromHex(b.previous_signature);
      if (prev === null || prev.length !== 96) bad("beacon_previous_signature", "the default chain needs the previous round's 96-byte signature");
    } else if (b.previous_signature !== undefined) {
      bad("beacon_previous_signature", `${b.chain} rounds are not chained to a previous signature`);
    }
    r.beacon = { chain: b.chain, round: b.round, sig, prev, info };
  }

  // §5 nonces already used.
  if (v.used_nonces !== undefined) {
    if (!Array.isArray(v.used_nonces)) bad("used_nonces", "not a list");
    r.usedNonces = v.used_nonces.map((n) => parseU64(n, "used_nonces"));
  }

  // Claimed cards, dealing order. One deck (fairhold/v1) has each card once.
  if (v.claimed_cards !== undefined) {
    if (!Array.isArray(v.claimed_cards) || v.claimed_cards.length === 0) bad("claimed_cards", "an empty or missing list");
    if (v.claimed_cards.length > r.count) bad("claimed_cards", `${v.claimed_cards.length} cards claimed, the round deals ${r.count}`);
    const seen = new Set();
    r.claimed = v.claimed_cards.map((t) => {
      let i;
      try {
        i = parseCard(t);
      } catch (e) {
        bad("claimed_cards", e.message);
      }
      if (seen.has(i) && r.scheme === "fairhold/v1") bad("claimed_cards", `${cardName(i)} claimed twice (one deck has each card once)`);
      seen.add(i);
      return i;
    });
  }
  return r;
}

// ---------------------------------------------------------------------------
// §8–§10: fairhold/v1.

// v1Prefix is the HMAC message prefix (§8).
function v1Prefix(clientSeeds, nonce, beacon) {
  const parts = [utf8.encode("fairhold/v1"), u32be(clientSeeds.length)];
  for (const s of clientSeeds) parts.push(u32be(s.length), s);
  parts.push(u64be(nonce), u8(beacon ? beacon.length : 0));
  if (beacon) parts.push(beacon);
  return concat(...parts);
}

// v1Deal deals count cards (§8 stream, §9 U(n), §10 forward Fisher–Yates).
async function v1Deal(seed, prefix, count) {
  const key = await hmacKey(seed);
  const blocks = [];
  let pos = 0; // bytes consumed
  const nextByte = async () => {
    const j = pos >> 5; // a block is computed only when its first byte is needed
    if (j === blocks.length) blocks.push(await hmac(key, concat(prefix, u64be(j))));
    return blocks[j][pos++ & 31];
  };
  const uniform = async (n) => {
    if (n === 1) return 0; // §9 step 1: no byte consumed
    const limit = 256 - (256 % n);
    for (;;) {
      const b = await nextByte();
      if (b < limit) return b % n;
    }
  };
  const deck = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 0; i < count; i++) {
    const j = i + (await uniform(52 - i));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  const block0 = blocks.length ? blocks[0] : await hmac(key, concat(prefix, u64be(0)));
  return { indices: deck.slice(0, count), block0 };
}

// ---------------------------------------------------------------------------
// §15: stake-compat (draws with replacement).

async function stakeDeal(seed, clientSeed, nonce, count) {
  const key = await hmacKey(utf8.encode(toHex(seed))); // the 64 lowercase hex characters
  const blocks = [];
  const indices = [];
  for (let d = 0; d < count; d++) {
    const r = d >> 3; // eight draws per block
    if (r === blocks.length) {
      const msg = concat(clientSeed, utf8.encode(`:${nonce}:${r}`));
      blocks.push(await hmac(key, msg));
    }
    const o = 4 * (d & 7);
    const word = new DataView(blocks[r].buffer).getUint32(o); // b0..b3, most significant first
    const k = Math.floor((word * 52) / 4294967296); // (u32 * 52) >> 32, exact in a double
    indices.push(4 * (k >> 2) + [1, 2, 3, 0][k & 3]); // operator order d h s c -> canonical
  }
  return { indices, block0: blocks[0] };
}

// ---------------------------------------------------------------------------
// The checks (vectors/README.md "Checks", docs/fairness.md §14), in report order.

// §6 chains hash 32-byte links up to 10,000,000 times. One awaited
// crypto.subtle.digest per step costs tens of microseconds (about 100 s for
// the default 1,000,000-step bound), so the walk uses this synchronous
// SHA-256 (FIPS 180-4) of one 32-byte message: a single padded block. Its
// first step is checked against crypto.subtle in chainCheck, and the tests
// compare it with crypto.subtle on random links.
const K256 = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const H256 = Int32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
const W256 = new Int32Array(64);

// sha256Link replaces the 8 big-endian words of link (32 bytes) with those of
// SHA-256(link).
function sha256Link(link) {
  const w = W256;
  w.set(link);
  w[8] = 0x80000000; // padding: a 1 bit, zeros, the length 256 bits
  w.fill(0, 9, 15);
  w[15] = 256;
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15];
    const b = w[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = 0x6a09e667;
  let b = 0xbb67ae85 | 0;
  let c = 0x3c6ef372;
  let d = 0xa54ff53a | 0;
  let e = 0x510e527f;
  let f = 0x9b05688c | 0;
  let g = 0x1f83d9ab;
  let h = 0x5be0cd19;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K256[i] + w[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  link[0] = (H256[0] + a) | 0;
  link[1] = (H256[1] + b) | 0;
  link[2] = (H256[2] + c) | 0;
  link[3] = (H256[3] + d) | 0;
  link[4] = (H256[4] + e) | 0;
  link[5] = (H256[5] + f) | 0;
  link[6] = (H256[6] + g) | 0;
  link[7] = (H256[7] + h) | 0;
}

function bytesToWords(b) {
  const dv = new DataView(b.buffer, b.byteOffset, 32);
  return Int32Array.from({ length: 8 }, (_, i) => dv.getInt32(4 * i));
}

function wordsToBytes(w) {
  const b = new Uint8Array(32);
  const dv = new DataView(b.buffer);
  w.forEach((x, i) => dv.setInt32(4 * i, x));
  return b;
}

// sha256Sync is SHA-256 of a 32-byte value, synchronously (exported for the
// tests, which compare it with crypto.subtle).
export function sha256Sync(bytes32) {
  const w = bytesToWords(bytes32);
  sha256Link(w);
  return wordsToBytes(w);
}

// chainCheck: §6. Exactly steps hashes, or search up to maxSteps.
async function chainCheck(seed, chain) {
  const first = await sha256(seed);
  const link = bytesToWords(seed);
  sha256Link(link);
  if (!equalBytes(wordsToBytes(link), first)) throw new Error("internal error: the chain hash disagrees with crypto.subtle");
  const anchor = bytesToWords(chain.anchor);
  const atAnchor = () =>
    link[0] === anchor[0] && link[1] === anchor[1] && link[2] === anchor[2] && link[3] === anchor[3] &&
    link[4] === anchor[4] && link[5] === anchor[5] && link[6] === anchor[6] && link[7] === anchor[7];
  if (chain.steps !== undefined) {
    for (let k = 1; k < chain.steps; k++) sha256Link(link);
    return atAnchor()
      ? { ok: true, detail: `the link hashes to the anchor in ${chain.steps} steps` }
      : { ok: false, detail: `the link does not hash to the anchor in exactly ${chain.steps} steps` };
  }
  for (let k = 1; k <= chain.maxSteps; k++) {
    if (k > 1) sha256Link(link);
    if (atAnchor()) return { ok: true, detail: `the link hashes to the anchor in ${k} steps` };
  }
  return { ok: false, detail: `the link does not reach the anchor within ${chain.maxSteps} steps` };
}

// checkVector runs every check whose inputs v has (vectors/README.md) and
// derives the cards. opts.verifyBeacon(chain, round, sigHex, prevSigHex)
// checks the drand BLS signature (sync or async, returns a boolean); without
// it the check "beacon-signature" is reported with ok: null ("unchecked"),
// listed in result.unchecked, and the cards are derived from the unverified
// signature's randomness.
//
// Result: { verdict: "success" | "failure" | "partial" | "malformed",
//   checks: [{name, ok: true|false|null, detail}] in report order,
//   failures: names of the failed checks, unchecked: names reported ok: null,
//   field: the malformed input field (malformed only), reason: one sentence,
//   expected: {prefix (fairhold/v1), block0, beacon_randomness (with a beacon),
//     indices, cards, layout (with a game), positions} or null (malformed, or
//     the beacon did not verify),
//   checked_positions, unchecked_positions: the positions whose claimed card
//     was compared (absent without claimed cards) and those a partial claim
//     left out (every position without claimed cards), in words (§11.1);
//     both absent when the cards cannot be derived,
//   mismatches: [{position, claimed, dealt, shown}] for a cards failure, in
//     dealing order (shown = claimed: the card the player was shown),
//   unbound: true when nothing binds the server seed (no commitment and no
//     chain), absent otherwise }.
// "partial": every check passed but fewer cards were claimed than dealt,
// none included (a vector always deals count >= 1 cards); or every check
// passed but nothing binds the server seed: without a commitment or a chain
// it may have been chosen after the client seeds were known, so the round
// cannot be checked (§14), however well its cards match.
export async function checkVector(v, opts = {}) {
  let r;
  try {
    r = parseInput(v);
  } catch (e) {
    if (!(e instanceof Malformed)) throw e;
    return { verdict: "malformed", field: e.field, reason: e.message, checks: [], failures: [], unchecked: [], expected: null, mismatches: [] };
  }

  const checks = [];
  const add = (name, res) => checks.push({ name, ok: res.ok, detail: res.detail });

  if (r.commitment) {
    const got = await sha256(r.seed);
    add("commitment", equalBytes(got, r.commitment)
      ? { ok: true, detail: `SHA-256(server seed) = ${toHex(got)}` }
      : { ok: false, detail: `SHA-256(server seed) = ${toHex(got)}, the commitment is ${toHex(r.commitment)}` });
  }

  if (r.chain) add("chain", await chainCheck(r.seed, r.chain));

  let beaconOk = true;
  let randomness = null;
  if (r.beacon) {
    const b = r.beacon;
    randomness = await sha256(b.sig); // §7: over the signature's bytes
    if (typeof opts.verifyBeacon === "function") {
      let ok = false;
      let why = "";
      try {
        ok = (await opts.verifyBeacon(b.chain, b.round, toHex(b.sig), b.prev ? toHex(b.prev) : "")) === true;
      } catch (e) {
        why = ` (${e && e.message ? e.message : e})`;
      }
      beaconOk = ok;
      add("beacon-signature", ok
        ? { ok: true, detail: `drand ${b.chain} round ${b.round}: the signature verifies` }
        : { ok: false, detail: `drand ${b.chain} round ${b.round}: the signature does not verify${why}` });
    } else {
      add("beacon-signature", { ok: null, detail: "unchecked: no BLS verifier available" });
    }
    if (r.committedAt) {
      const t = b.info.genesis + (b.round - 1) * b.info.period; // exact: below 2^53 (§7 bounds)
      const iso = (s) => new Date(s * 1000).toISOString().replace(".000Z", "Z");
      add("beacon-after-commitment", t > r.committedAt.seconds
        ? { ok: true, detail: `round ${b.round} was published at ${iso(t)}, after the commitment` }
        : { ok: false, detail: `round ${b.round} was published at ${iso(t)}, not after the commitment (${v.committed_at})` });
    }
  }

  if (r.usedNonces) {
    const reused = r.usedNonces.some((n) => n === r.nonce);
    add("nonce-unused", reused
      ? { ok: false, detail: `nonce ${r.nonce} was already used` }
      : { ok: true, detail: `nonce ${r.nonce} is not among the ${r.usedNonces.length} used` });
  }

  // Derive the cards (unless the beacon failed: its randomness is used only
  // after its signature verifies, §7).
  let expected = null;
  if (beaconOk) {
    expected = {};
    let dealt;
    if (r.scheme === "fairhold/v1") {
      const prefix = v1Prefix(r.clientSeeds, r.nonce, randomness);
      dealt = await v1Deal(r.seed, prefix, r.count);
      expected.prefix = toHex(prefix);
    } else {
      dealt = await stakeDeal(r.seed, r.clientSeeds[0], r.nonce, r.count);
    }
    expected.block0 = toHex(dealt.block0);
    if (randomness) expected.beacon_randomness = toHex(randomness);
    expected.indices = dealt.indices;
    expected.cards = dealt.indices.map(cardName);
    if (r.game) expected.layout = layoutOf(r.game, expected.cards, r.hands, r.order);
    expected.positions = expected.indices.map((_, i) => positionName(r.game, { hands: r.hands, seats: r.order }, i));
  }

  const layoutInfo = { hands: r.hands, seats: r.order };
  const mismatches = [];
  let partial = false;
  if (r.claimed) {
    if (!expected) {
      add("cards", { ok: false, detail: "not derivable: the beacon did not verify" });
    } else {
      r.claimed.forEach((c, i) => {
        if (c !== expected.indices[i]) {
          const claimed = cardName(c);
          mismatches.push({ position: expected.positions[i], claimed, dealt: expected.cards[i], shown: claimed });
        }
      });
      const n = r.claimed.length;
      add("cards", mismatches.length === 0
        ? { ok: true, detail: n < r.count ? `${n} claimed cards equal the first ${n} of the ${r.count} dealt (partial claim)` : `${n} claimed cards equal the scheme's deal` }
        : { ok: false, detail: mismatches.map((m) => `${m.position}: ${m.claimed} claimed, ${m.dealt} dealt`).join("; ") });
    }
  }

  // Fewer claimed cards than the round deals, none included, is a partial
  // claim (docs/fairness.md §14): every position left out is unchecked.
  const nClaimed = r.claimed ? r.claimed.length : 0;
  if (expected) partial = nClaimed < r.count;

  if (r.scheme === "stake-compat" && expected) {
    const seen = new Map();
    const repeats = [];
    expected.indices.forEach((c, i) => {
      if (seen.has(c)) repeats.push(`${cardName(c)} is dealt twice, ${expected.positions[seen.get(c)]} and ${expected.positions[i]}`);
      else seen.set(c, i);
    });
    add("no-repeated-cards", repeats.length === 0
      ? { ok: true, detail: `the ${r.count} draws are all different cards` }
      : { ok: false, detail: `${repeats.join("; ")} (the scheme draws with replacement)` });
  }

  const result = {};
  if (expected) {
    if (nClaimed > 0) result.checked_positions = expected.positions.slice(0, nClaimed);
    if (partial) result.unchecked_positions = expected.positions.slice(nClaimed);
  }

  const failures = checks.filter((c) => c.ok === false).map((c) => c.name);
  const unchecked = checks.filter((c) => c.ok === null).map((c) => c.name);
  // Nothing binds the server seed without a commitment or a chain (§14).
  const unbound = !r.commitment && !r.chain;
  if (unbound) result.unbound = true;
  const verdict = failures.length ? "failure" : partial || unbound ? "partial" : "success";
  const notChecked = unchecked.length ? `; not checked: ${unchecked.join(", ")}` : "";
  const reason = failures.length
    ? `failed: ${failures.join(", ")}`
    : unbound
      ? `cannot check: nothing binds the server seed (no commitment, no chain)${notChecked}`
      : partial
        ? (nClaimed === 0
          ? `the claim has none of the round's ${r.count} cards: no card was checked`
          : `the claim has ${nClaimed} of the round's ${r.count} cards`) + notChecked
        : unchecked.length
          ? `every check run passed${notChecked}`
          : "every check passed";
  return { verdict, checks, failures, unchecked, reason, expected, ...result, mismatches };
}
