// app.js: the players' verifier page (docs/verifier-page.md). A classic
// script (a page opened from file:// cannot load ES modules): it reads the
// round from the form or from the URL fragment, deals it twice (deal.js, the
// JavaScript implementation, as globalThis.fairholdDeal; and fairhold's Go
// code compiled to WebAssembly, as globalThis.fairhold), compares the two,
// and settles the bets with the WebAssembly build.
(function () {
  "use strict";

  const $ = (id) => document.getElementById(id);
  const GAMES = ["casino-holdem", "live-casino-holdem", "double-holdem"];
  const RANKS = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };
  const SUITS = { c: ["clubs", "\u2663"], d: ["diamonds", "\u2666"], h: ["hearts", "\u2665"], s: ["spades", "\u2660"] };
  // The built-in profiles' smallest ANTE, used to rank the hands when no bet is given.
  const RANKING_ANTE = 1000;

  // ---------------------------------------------------------------------
  // Elements.

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const k of kids) {
      if (k === null || k === undefined) continue;
      e.append(typeof k === "string" ? document.createTextNode(k) : k);
    }
    return e;
  }

  function cardWords(name) {
    const r = RANKS[name[0]];
    const s = SUITS[name[1]];
    return r && s ? `${r} of ${s[0]}` : name;
  }

  // cardEl draws one card: its rank and suit symbol for the eye, its name
  // in words for a screen reader.
  // With shown, the card is the one the player was shown where the seeds
  // deal another (drawn beside the dealt one, data-shown-card).
  function cardEl(name, shown) {
    if (!name) return el("span", { class: "card blank" }, el("span", { class: "sr-only", text: "no card" }));
    const s = SUITS[name[1]];
    const rank = name[0] === "T" ? "10" : name[0];
    return el("span", { class: `card suit-${name[1]}${shown ? " shown-card" : ""}`, "data-card": shown ? null : name, "data-shown-card": shown ? name : null },
      el("span", { class: "face", "aria-hidden": "true" }, el("span", { class: "rank", text: rank }), el("span", { class: "pip", text: s ? s[1] : "?" })),
      el("span", { class: "sr-only", text: shown ? `you were shown the ${cardWords(name)} here` : cardWords(name) }));
  }

  // ---------------------------------------------------------------------
  // Base64url of UTF-8 JSON, for links.

  function b64urlEncode(text) {
    const bytes = new TextEncoder().encode(text);
    let bin = "";
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function b64urlDecode(s) {
    const b64 = s.replace(/-/g, "+").replace(/_/g, "/");
    const bin = atob(b64 + "===".slice((b64.length + 3) % 4));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  }

  // ---------------------------------------------------------------------
  // The WebAssembly build.

  let wasmReady = null;

  function loadWasm() {
    if (wasmReady) return wasmReady;
    wasmReady = (async () => {
      if (typeof Go !== "function" || typeof globalThis.fairholdWasmGzip !== "string") {
        throw new Error("the WebAssembly files (wasm_exec.js, fairhold-wasm.js) did not load");
      }
      const bin = atob(globalThis.fairholdWasmGzip);
      const gz = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) gz[i] = bin.charCodeAt(i);
      const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"));
      const wasm = await new Response(stream).arrayBuffer();
      const go = new Go();
      const { instance } = await WebAssembly.instantiate(wasm, go.importObject);
      go.run(instance);
      if (!globalThis.fairhold || typeof globalThis.fairhold.verify !== "function") {
        throw new Error("the WebAssembly build did not start");
      }
      return globalThis.fairhold;
    })();
    return wasmReady;
  }

  // ---------------------------------------------------------------------
  // The form.

  function gameOf() { return $("game").value; }

  function handsOf(game) {
    if (game === "casino-holdem") return 1;
    if (game === "live-casino-holdem") return Math.max(1, Math.min(6, parseInt($("hands").value, 10) || 1));
    if (game === "double-holdem") return seatList().length;
    return 0;
  }

  function seatList() {
    return $("seats").value.split(/[\s,]+/).filter((s) => s !== "").map((s) => Number(s));
  }

  function updateGameFields() {
    const game = gameOf();
    for (const row of document.querySelectorAll("[data-for]")) {
      const want = row.getAttribute("data-for");
      row.hidden = !(want === game || (want === "raw" && game === ""));
    }
    const order = {
      "casino-holdem": "your 2 cards, the dealer's 2, the flop (3), the turn, the river",
      "live-casino-holdem": "each box's 2 cards (box 1 first), the dealer's 2, the flop (3), the turn, the river",
      "double-holdem": "3 cards for each seat starting left of the button, then the flop (3), the turn, the river",
      "": "the cards in the order they were drawn",
    }[game];
    $("order-words").textContent = order;
    renderBetRows();
  }

  function renderBetRows() {
    const game = gameOf();
    const box = $("bets");
    const old = {};
    for (const inp of box.querySelectorAll("input, select")) old[inp.id] = inp.value;
    box.textContent = "";
    if (game !== "casino-holdem" && game !== "live-casino-holdem") {
      box.append(el("p", { class: "hint", text: game === "double-holdem"
        ? "Double Hold'em is settled from the hand's actions: paste the round record below."
        : "Bets are settled for a game only." }));
      return;
    }
    const n = handsOf(game);
    for (let b = 1; b <= n; b++) {
      const id = (k) => `bet-${b}-${k}`;
      const label = game === "casino-holdem" ? "Your box" : `Box ${b}`;
      const fs = el("fieldset", { class: "bet" }, el("legend", { text: label }),
        el("div", { class: "row" }, el("label", { for: id("ante"), text: "ANTE" }), el("input", { id: id("ante"), type: "number", min: "0", inputmode: "numeric" })),
        el("div", { class: "row" }, el("label", { for: id("bonus"), text: "AA Bonus" }), el("input", { id: id("bonus"), type: "number", min: "0", inputmode: "numeric" })),
        el("div", { class: "row" }, el("label", { for: id("decision"), text: "Decision" }),
          el("select", { id: id("decision") }, el("option", { value: "call", text: "call" }), el("option", { value: "fold", text: "fold" }))),
        el("div", { class: "row" }, el("label", { for: id("paid"), text: "Paid back to you in total (optional)" }), el("input", { id: id("paid"), type: "number", min: "0", inputmode: "numeric" })));
      box.append(fs);
    }
    for (const [k, v] of Object.entries(old)) if ($(k)) $(k).value = v;
  }

  // roundFromForm returns the round object of docs/verifier-page.md.
  function roundFromForm() {
    const game = gameOf();
    const v = { v: 1, scheme: $("scheme").value };
    if (game) {
      v.game = game;
      if (game === "double-holdem") {
        v.seats = seatList();
        v.button = Number($("button").value) || 0;
      }
      v.hands = handsOf(game);
    } else if ($("count").value !== "") {
      v.count = Number($("count").value);
    }
    v.server_seed = $("server_seed").value.trim();
    v.client_seeds = $("client_seeds").value.split(/\r?\n/).filter((s) => s !== "");
    v.nonce = $("nonce").value.trim();
    if ($("commitment").value.trim()) v.commitment = $("commitment").value.trim();
    if ($("committed_at").value.trim()) v.committed_at = $("committed_at").value.trim();
    if ($("chain_anchor").value.trim()) {
      v.chain = { anchor: $("chain_anchor").value.trim() };
      if ($("chain_steps").value !== "") v.chain.steps = Number($("chain_steps").value);
    }
    if ($("beacon_signature").value.trim() || $("beacon_round").value !== "") {
      v.beacon = { chain: $("beacon_chain").value, round: Number($("beacon_round").value) || 0, signature: $("beacon_signature").value.trim() };
      if ($("beacon_previous_signature").value.trim()) v.beacon.previous_signature = $("beacon_previous_signature").value.trim();
    }
    if ($("used_nonces").value.trim()) v.used_nonces = $("used_nonces").value.split(",").map((s) => s.trim()).filter((s) => s !== "");
    const cardsText = $("cards").value.trim();
    if (cardsText) v.claimed_cards = cardsText; // parsed in check()
    const rec = $("record").value.trim();
    if (rec) v.round = rec; // parsed in check()
    else if (game === "casino-holdem" || game === "live-casino-holdem") {
      const boxes = [];
      for (let b = 1; b <= handsOf(game); b++) {
        const ante = $(`bet-${b}-ante`) ? $(`bet-${b}-ante`).value : "";
        if (ante === "") continue;
        const bx = { box: b, ante: Number(ante), decision: $(`bet-${b}-decision`).value };
        const bonus = $(`bet-${b}-bonus`).value;
        if (bonus !== "" && Number(bonus) > 0) bx.bonus = Number(bonus);
        const paid = $(`bet-${b}-paid`).value;
        if (paid !== "") bx.paid = Number(paid);
        boxes.push(bx);
      }
      if (boxes.length) v.bets = boxes;
    }
    const cur = $("currency").value.trim().toUpperCase();
    if (cur) v.currency = cur;
    return v;
  }

  function setValue(id, x) { if ($(id) && x !== undefined && x !== null) $(id).value = String(x); }

  // fillForm puts a link's round in the form, and nothing else: the form
  // is reset first, so that a second link opened in the same tab keeps
  // none of the first round's fields (its commitment, chain, cards, bets).
  function fillForm(v) {
    $("round").reset();
    $("link-out").hidden = true;
    $("more-seeds").open = false;
    $("record-details").open = false;
    setValue("scheme", v.scheme);
    setValue("game", v.game || "");
    updateGameFields();
    if (v.game === "live-casino-holdem") setValue("hands", v.hands);
    if (v.seats) setValue("seats", v.seats.join(", "));
    setValue("button", v.button);
    if (!v.game) setValue("count", v.count);
    setValue("server_seed", v.server_seed);
    setValue("commitment", v.commitment);
    setValue("client_seeds", (v.client_seeds || []).join("\n"));
    setValue("nonce", v.nonce);
    setValue("committed_at", v.committed_at);
    if (v.chain) { setValue("chain_anchor", v.chain.anchor); setValue("chain_steps", v.chain.steps); }
    if (v.beacon) {
      setValue("beacon_chain", v.beacon.chain);
      setValue("beacon_round", v.beacon.round);
      setValue("beacon_signature", v.beacon.signature);
      setValue("beacon_previous_signature", v.beacon.previous_signature);
    }
    if (v.used_nonces) setValue("used_nonces", v.used_nonces.join(", "));
    if (v.chain || v.beacon || v.used_nonces || v.committed_at) $("more-seeds").open = true;
    const cc = v.claimed_cards;
    setValue("cards", Array.isArray(cc) ? cc.join(" ") : cc || "");
    updateGameFields();
    if (v.round) {
      setValue("record", typeof v.round === "string" ? v.round : JSON.stringify(v.round));
      $("record-details").open = true;
    }
    // A link without a currency leaves the amounts in minor units.
    setValue("currency", v.currency || "");
    for (const b of v.bets || []) {
      setValue(`bet-${b.box}-ante`, b.ante);
      setValue(`bet-${b.box}-bonus`, b.bonus);
      setValue(`bet-${b.box}-decision`, b.decision);
      setValue(`bet-${b.box}-paid`, b.paid);
    }
  }

  // ---------------------------------------------------------------------
  // Checking.

  const CHECK_WORDS = {
    "commitment": ["The server seed matches the commitment the casino published before the round.",
      "The server seed does NOT match the commitment published before the round: it is not the seed the casino committed to."],
    "chain": ["The server seed is a link of the casino's published hash chain.",
      "The server seed is NOT a link of the casino's published hash chain."],
    "beacon-signature": ["The public drand randomness mixed into the deal is genuine (its signature verifies).",
      "The drand beacon's signature does NOT verify: the randomness mixed into the deal is not genuine."],
    "beacon-after-commitment": ["The drand randomness was published after the casino's commitment, so nobody knew it in advance.",
      "The drand randomness was published BEFORE the casino's commitment: the casino could have known it."],
    "nonce-unused": ["This nonce was not used before with this server seed.",
      "This nonce was already used with this server seed: the same cards can be dealt twice."],
    "cards": ["The cards you were shown are the cards the seeds deal.",
      "The cards you were shown are NOT the cards the seeds deal."],
    "no-repeated-cards": ["No card was dealt twice.",
      "A card was dealt twice (this scheme draws with replacement, unlike a real deck)."],
    "payout": ["What you were paid is what the rules pay.",
      "What you were paid is NOT what the rules pay."],
  };

  function flatDeal(d) {
    if (!d) return null;
    if (d.draws) return d.draws.slice();
    const out = [];
    if (d.player) out.push(...d.player);
    for (const b of d.boxes || []) out.push(...b);
    for (const s of d.seats || []) out.push(...s.cards);
    if (d.dealer) out.push(...d.dealer);
    if (d.flop) out.push(...d.flop);
    if (d.turn) out.push(d.turn);
    if (d.river) out.push(d.river);
    return out;
  }

  // agreement compares the two implementations' results; it returns null
  // when they agree, or the difference in words.
  function agreement(js, go) {
    if (js.verdict === "malformed" || go.verdict === "error") {
      if (js.verdict === "malformed" && go.verdict === "error") return null;
      return js.verdict === "malformed"
        ? `JavaScript rejects the input (${js.field}: ${js.reason}), WebAssembly does not`
        : `WebAssembly rejects the input (${go.error}), JavaScript does not`;
    }
    const a = js.checks.map((c) => `${c.name}:${c.ok}`).join(",");
    const b = (go.checks || []).map((c) => `${c.name}:${c.ok}`).join(",");
    if (a !== b) return `the checks differ: JavaScript ${a || "none"}; WebAssembly ${b || "none"}`;
    const jc = js.expected ? js.expected.cards : null;
    const gc = flatDeal(go.cards);
    if ((jc && jc.length ? jc.join(" ") : "") !== (gc ? gc.join(" ") : "")) {
      return `the dealt cards differ: JavaScript ${jc ? jc.join(" ") : "none"}; WebAssembly ${gc ? gc.join(" ") : "none"}`;
    }
    return null;
  }

  function seatsOf(v) {
    // Double Hold'em seats in dealing order: left of the button first.
    const s = (v.seats || []).slice().sort((x, y) => x - y);
    const i = s.indexOf(v.button);
    if (i < 0) return s;
    return s.slice(i + 1).concat(s.slice(0, i + 1));
  }

  // recordFor returns the round record to settle: the player's bets with
  // the cards the seeds deal (a round record is settled by the WebAssembly
  // build's payout, in check).
  function recordFor(v, deal, rankingOnly) {
    const board = [...deal.flop, deal.turn, deal.river];
    if (v.game === "double-holdem") return showdownRecord(v, deal, board);
    const boxes = [];
    const hands = deal.player ? [deal.player] : deal.boxes || [];
    const bets = rankingOnly ? hands.map((_, i) => ({ box: i + 1, ante: RANKING_ANTE, decision: "call" })) : v.bets || [];
    for (const b of bets) {
      const bx = { box: b.box, player_id: "player", cards: hands[b.box - 1], ante_requested: b.ante, ante: b.ante, decision: b.decision, call: 0,
        ante_return: 0, call_return: 0, bonus_return: 0, balance_before: 0, balance_after: 0 };
      if (b.bonus) { bx.bonus_requested = b.bonus; bx.bonus = b.bonus; }
      boxes.push(bx);
    }
    return { round_id: "page", game: v.game, table_id: "page", time: "", currency: rankingOnly ? "" : v.currency || "", profile: v.game,
      fairness: { scheme: v.scheme, commitment: "", server_seed: "", client_seeds: [], nonce: 0 },
      dealer: deal.dealer, board, boxes };
  }

  // showdownRecord is a Double Hold'em hand in which every player calls the
  // big blind and checks to the showdown: settling it ranks every hand and
  // names the winners, when the player gave no actions.
  function showdownRecord(v, deal, board) {
    const order = deal.seats.map((s) => s.seat); // left of the button first, the button last
    const n = order.length;
    const SB = 50, BB = 100, STACK = 10000;
    const sb = n === 2 ? order[1] : order[0];
    const bb = n === 2 ? order[0] : order[1];
    const actions = [
      { seat: sb, street: "preflop", kind: "small-blind", amount: SB },
      { seat: bb, street: "preflop", kind: "big-blind", amount: BB },
    ];
    const pre = n === 2 ? [sb] : order.slice(2).concat([sb]);
    for (const s of pre) actions.push({ seat: s, street: "preflop", kind: "call", amount: s === sb ? BB - SB : BB });
    actions.push({ seat: bb, street: "preflop", kind: "check", amount: 0 });
    for (const street of ["flop", "turn", "river"]) {
      for (const s of order) actions.push({ seat: s, street, kind: "check", amount: 0 });
    }
    const seats = deal.seats.slice().sort((a, b) => a.seat - b.seat)
      .map((s) => ({ seat: s.seat, player_id: `seat-${s.seat}`, cards: s.cards, stack_before: STACK, stack_after: 0 }));
    return { round_id: "page", game: v.game, table_id: "page", time: "", currency: "", profile: v.game,
      fairness: { scheme: v.scheme, commitment: "", server_seed: "", client_seeds: [], nonce: 0 },
      board, double: { button: order[n - 1], small_blind: SB, big_blind: BB, seats, actions, pots: [], rake: 0 } };
  }

  function settleWith(fh, record) {
    const out = JSON.parse(fh.settle(JSON.stringify(record)));
    if (out.verdict === "error") throw new Error(out.error);
    return out;
  }

  async function check(v) {
    const deal = globalThis.fairholdDeal;
    if (!deal) throw new Error("deal.js did not load");
    const fh = await loadWasm();
    // The same input for both implementations: claimed cards as names.
    const input = JSON.parse(JSON.stringify(v));
    let cardsError = null;
    if (typeof input.claimed_cards === "string") {
      try {
        // stake-compat draws with replacement: a claim may repeat a card
        // (the no-repeated-cards check then says so).
        input.claimed_cards = deal.parseCards(input.claimed_cards, { duplicates: input.scheme === "stake-compat" });
      } catch (e) {
        cardsError = e && e.message ? e.message : String(e);
      }
    }
    if (typeof input.round === "string") {
      try {
        input.round = JSON.parse(input.round);
      } catch (e) {
        return { error: `the round record is not JSON: ${e.message}` };
      }
    }
    if (cardsError) return { error: `the cards you were shown: ${cardsError}` };
    const vec = {};
    for (const k of ["scheme", "game", "hands", "seats", "button", "server_seed", "client_seeds", "nonce", "commitment", "committed_at",
      "chain", "beacon", "used_nonces", "count", "claimed_cards"]) {
      if (input[k] !== undefined) vec[k] = input[k];
    }
    if (vec.game && vec.count === undefined && dealCount(vec) !== undefined) vec.count = dealCount(vec);
    if (!vec.game && vec.count === undefined) vec.count = (vec.claimed_cards || []).length;
    const js = await deal.checkVector(vec, { verifyBeacon: (c, r, s, p) => fh.verifyBeacon(c, r, s, p) });
    const go = JSON.parse(fh.verify(JSON.stringify(vec)));
    const res = { input, vec, js, go, disagree: agreement(js, go) };
    if (go.verdict === "error" || js.verdict === "malformed") return res;
    // Settle, when the deal is known and the game is one: a round record by
    // the WebAssembly build's payout (`fairhold verify --round`'s check),
    // the bets of the form with the cards the seeds deal.
    const d = go.cards;
    if (input.round && vec.game) {
      const rec = JSON.parse(JSON.stringify(input.round));
      rec.game = rec.game || vec.game;
      if (!rec.profile) rec.profile = rec.game;
      const out = JSON.parse(fh.payout(JSON.stringify(rec), JSON.stringify(go)));
      if (out.verdict === "error") res.settleError = out.error;
      else {
        res.settlement = out.settlement;
        res.paid = out.check;
        // A record whose cards are not the seeds' is settled with the cards
        // it logs: its winners are not those of the deal drawn.
        res.settledLogged = (go.checks || []).some((c) => c.name === "cards" && !c.ok);
      }
    }
    if (d && vec.game) {
      try {
        if (!input.round && input.bets) res.settlement = settleWith(fh, recordFor(input, d, false));
      } catch (e) {
        res.settleError = e.message;
      }
      if (!res.settlement || res.settledLogged) {
        try {
          res.ranking = settleWith(fh, recordFor({ game: vec.game, scheme: vec.scheme }, d, true));
        } catch (e) { /* the hands are shown without ranking */ }
      }
    }
    if (res.settlement) {
      // Amounts are shown in units of the round's currency (the record's,
      // else the one given with the bets), by the WebAssembly build's
      // money.Format: the one formatter of the toolkit.
      res.currency = (input.round && typeof input.round === "object" && input.round.currency) || input.currency || "";
      res.money = (n) => fh.formatMoney(typeof n === "number" ? n : String(n), res.currency) || String(n);
      if (!input.round) res.paid = paidCheck(input, res.settlement, res.money);
    }
    return res;
  }

  // dealCount is the number of cards a game deals, or undefined when the
  // round does not say how many hands (Live Casino Hold'em without
  // "hands": both implementations then name the missing field).
  function dealCount(v) {
    const h = v.game === "casino-holdem" ? 1 : v.game === "live-casino-holdem" ? v.hands : (v.seats || []).length;
    if (!Number.isInteger(h)) return undefined;
    return v.game === "double-holdem" ? 3 * h + 5 : 2 * h + 7;
  }

  // paidCheck compares what the player says they were paid for each box
  // (the form's "Paid back to you in total") with the settlement of the
  // bets: the payout check of bets without a round record.
  function paidCheck(input, s, money) {
    const wrong = [];
    let any = false;
    for (const b of s.boxes || []) {
      const want = b.ante_return + b.call_return + b.bonus_return;
      const bet = (input.bets || []).find((x) => x.box === b.box);
      if (!bet || bet.paid === undefined) continue;
      any = true;
      if (bet.paid !== want) wrong.push(`box ${b.box}: paid ${money(bet.paid)}, the rules pay ${money(want)}`);
    }
    if (!any) return null;
    return { name: "payout", ok: wrong.length === 0, detail: wrong.length ? wrong.join("; ") : "every return equals the settlement" };
  }

  // ---------------------------------------------------------------------
  // Showing the result.

  const REASONS = {
    "dealer-not-qualified": "the dealer did not qualify",
    "player-won": "your hand beat the dealer's",
    "dealer-won": "the dealer's hand beat yours",
    "tie": "a tie",
    "fold": "you folded",
    "void": "the round was void",
    "bonus-won": "AA Bonus won",
    "bonus-lost": "AA Bonus lost",
    "bonus-forfeited": "AA Bonus forfeited by the fold",
  };

  function handWords(h) { return h ? h.replace(/-/g, " ") : ""; }

  // verdictOf sums a check up: kind (verified, partial, failed, error),
  // the verdict's words, short words for a table of rounds (verified,
  // failed, cannot check, partial), the failed checks and the likely
  // copying mistakes (the WebAssembly build's hints, as `fairhold verify`
  // gives them).
  function verdictOf(res) {
    if (res.error) return { kind: "error", short: "cannot check", text: `Cannot check: ${res.error}`, why: res.error, checks: [], hints: [] };
    if (res.js.verdict === "malformed" || res.go.verdict === "error") {
      const why = res.js.verdict === "malformed" ? `${res.js.field}: ${res.js.reason}` : res.go.error;
      return { kind: "error", short: "cannot check", text: `Cannot check: the input is malformed (${why}).`, why, checks: [], hints: [] };
    }
    const checks = (res.go.checks || []).slice();
    if (res.paid) checks.push(res.paid);
    const failed = checks.filter((c) => !c.ok);
    const hints = res.go.hints || [];
    const claimed = (res.vec.claimed_cards || []).length;
    const count = res.vec.count;
    const out = { checks, hints };
    if (failed.length) {
      const names = failed.map((c) => c.name).join(", ");
      const likely = hints.some((h) => h.confirmed);
      // The usual copying mistakes come first: a failed check is not yet
      // a cheating casino.
      const mistake = likely
        ? " This is most likely a copying mistake, not foul play: see the likely mistake below, and check the round again with it corrected."
        : hints.length
          ? " Before suspecting the casino, rule out the usual copying mistakes listed below."
          : " This round does not check out.";
      return { ...out, kind: "failed", short: "failed", text: `FAILED: ${names}.${mistake}`, why: failed.map((c) => `${c.name}: ${c.detail}`).join("; ") };
    }
    if (res.disagree) return { ...out, kind: "error", short: "cannot check", text: "Cannot tell: the two implementations disagree.", why: res.disagree };
    if (res.go.unbound || res.js.unbound) {
      // Nothing binds the server seed: cards that follow from it prove
      // nothing (docs/verifier-page.md, section 3).
      return { ...out, kind: "partial", short: "cannot check", why: "nothing binds the server seed (no commitment, no hash chain anchor)",
        text: "Cannot check: nothing binds the server seed. The round gives no commitment and no hash chain anchor, "
          + "so the casino could have chosen the seed after seeing yours, and the cards it deals prove nothing. "
          + "Add the commitment the casino published before the round (or its hash chain's anchor)." };
    }
    if (claimed < count) {
      return { ...out, kind: "partial", short: "partial", why: `${claimed} of the ${count} cards checked`,
        text: claimed === 0
          ? `Partial: every check passed, but you entered none of the ${count} cards, so the cards you were shown were not checked.`
          : `Partial: every check passed, but you entered ${claimed} of the round's ${count} cards; the rest were not checked.` };
    }
    return { ...out, kind: "verified", short: "verified", why: "every check passed",
      text: "Verified: every check passed, and the cards you were shown are the cards the seeds deal." };
  }

  function showResult(res) {
    const box = $("result");
    box.hidden = false;
    const verdict = $("verdict");
    const agree = $("agree");
    $("checks").textContent = "";
    $("hints").textContent = "";
    $("hints-box").hidden = true;
    $("mismatches").textContent = "";
    $("mismatches-box").hidden = true;
    $("deal").textContent = "";
    $("deal-note").textContent = "";
    $("deal-note").hidden = true;
    $("settlement").textContent = "";
    $("settlement-box").hidden = true;
    $("notes").textContent = "";
    agree.textContent = "";
    agree.className = "agree";
    const v = verdictOf(res);
    verdict.textContent = v.text;
    if (!res.error && res.js.verdict !== "malformed" && res.go.verdict !== "error") {
      for (const h of v.hints) {
        $("hints-box").hidden = false;
        $("hints").append(el("li", { class: h.confirmed ? "hint-item likely" : "hint-item", "data-hint": h.kind, "data-confirmed": h.confirmed ? "true" : "false" },
          el("strong", { text: h.confirmed ? "Likely mistake: " : "Usual mistakes: " }), h.text));
      }
      for (const c of v.checks) {
        const words = CHECK_WORDS[c.name] || [c.name, c.name];
        // The JavaScript's detail names positions and cards in words.
        const jc = res.js.checks.find((x) => x.name === c.name);
        const detail = jc && jc.detail ? jc.detail : c.detail;
        const li = el("li", { class: c.ok ? "ok" : "fail", "data-check": c.name, "data-ok": c.ok ? "true" : "false" },
          el("span", { class: "mark", "aria-hidden": "true", text: c.ok ? "\u2714" : "\u2716" }),
          el("span", { class: "sr-only", text: c.ok ? "passed: " : "failed: " }),
          el("span", { class: "words", text: c.ok ? words[0] : words[1] }),
          el("small", { class: "detail", text: ` ${c.name}: ${detail}` }));
        $("checks").append(li);
      }
      if (res.js.mismatches && res.js.mismatches.length) {
        $("mismatches-box").hidden = false;
        for (const m of res.js.mismatches) {
          $("mismatches").append(el("li", { class: "mismatch", text: `${m.position}: ${m.shown} shown, ${m.dealt} dealt` }));
        }
      }
      const ranked = res.settlement && !res.settledLogged ? res.settlement : res.ranking;
      const showdown = ranked !== res.ranking ? ""
        : res.settledLogged ? "the round record is settled with the cards it logs, not these"
          : res.vec.game === "double-holdem" ? "no round record given, and the hand may have ended otherwise"
            : "no bets given, and a box that folded did not play it out";
      if (res.go.cards) drawDeal(res.go.cards, res.vec, ranked, res.js.mismatches || [], showdown);
      else $("deal").append(el("p", { text: "The cards cannot be dealt: the beacon did not verify." }));
      if (res.settlement) drawSettlement(res.settlement, res.money, res.currency);
      else if (res.settleError) {
        $("settlement-box").hidden = false;
        $("settlement").append(el("p", { class: "fail", text: `The bets cannot be settled: ${res.settleError}` }));
      }
      if (res.go.notes && res.go.notes.length) $("notes").textContent = `Note: ${res.go.notes.join(" ")}`;
    }
    if (res.js && res.go) {
      if (res.disagree) {
        agree.className = "agree disagree";
        agree.setAttribute("role", "alert");
        agree.textContent = `WARNING: the two independent implementations DISAGREE: ${res.disagree}. Do not trust this result; please report it.`;
      } else {
        agree.className = "agree agreed";
        agree.removeAttribute("role");
        agree.textContent = "Two independent implementations agree (JavaScript from the published spec, and fairhold's Go code as WebAssembly).";
      }
    }
    verdict.className = `verdict ${v.kind}`;
    box.setAttribute("data-verdict", v.kind);
    box.focus();
  }

  function winners(s) {
    // Returns {hands: Set of hand keys that win, names: key -> hand words}.
    const win = new Set();
    const names = {};
    if (!s) return { win, names };
    for (const b of s.boxes || []) {
      const key = s.game === "casino-holdem" ? "player" : `box-${b.box}`;
      if (b.player_hand) names[key] = handWords(b.player_hand);
      if (b.dealer_hand) names.dealer = handWords(b.dealer_hand);
      if (b.reason === "player-won" || b.reason === "dealer-not-qualified" || b.reason === "tie") win.add(key);
      if (b.reason === "dealer-won" || b.reason === "tie") win.add("dealer");
    }
    if (s.double) {
      for (const pot of s.double.pots || []) for (const w of pot.winners || []) win.add(`seat-${w}`);
      for (const [seat, h] of Object.entries(s.double.hands || {})) names[`seat-${seat}`] = handWords(h);
    }
    return { win, names };
  }

  // drawDeal draws the cards the seeds deal, each hand with its category
  // and the winners; where the player was shown another card, that card
  // is drawn beside the dealt one. showdown, when not empty, says why the
  // winners are those of a showdown the page assumes (every box called;
  // every seat checked to the river): no bets or record were given, or the
  // record was settled with other cards; the page says so.
  function drawDeal(d, v, s, mismatches, showdown) {
    const { win, names } = winners(s);
    const shownAt = new Map(mismatches.map((m) => [m.position, m.shown]));
    const badge = showdown ? "wins at a showdown" : "wins";
    const hand = (key, title, cards, firstPos) => {
      const won = win.has(key);
      const row = el("div", { class: `hand${won ? " winner" : ""}`, "data-hand": key },
        el("h4", {}, title, names[key] ? el("span", { class: "hand-name", text: ` ${names[key]}` }) : null,
          won ? el("span", { class: "badge", text: badge }) : null));
      const list = el("div", { class: "cards", role: "list", "aria-label": `${title}${names[key] ? ", " + names[key] : ""}${won ? ", " + badge : ""}` });
      cards.forEach((c, i) => {
        const item = el("span", { role: "listitem" }, cardEl(c));
        const pos = firstPos !== null ? globalThis.fairholdDeal.positionName(v.game, { hands: v.hands, seats: seatsOf(v) }, firstPos + i) : null;
        if (pos && shownAt.has(pos)) {
          item.classList.add("wrong");
          item.append(el("span", { class: "shown", "data-position": pos }, el("span", { class: "shown-label", "aria-hidden": "true", text: "shown" }), cardEl(shownAt.get(pos), true)));
        }
        list.append(item);
      });
      row.append(list);
      $("deal").append(row);
    };
    if (d.draws) { hand("draws", "Cards in dealing order", d.draws, 0); return; }
    let pos = 0;
    if (d.player) { hand("player", "You", d.player, pos); pos += 2; }
    (d.boxes || []).forEach((b, i) => { hand(`box-${i + 1}`, `Box ${i + 1}`, b, pos); pos += 2; });
    for (const st of d.seats || []) { hand(`seat-${st.seat}`, `Seat ${st.seat}`, st.cards, pos); pos += 3; }
    if (d.dealer) { hand("dealer", "Dealer", d.dealer, pos); pos += 2; }
    hand("board", "Board (flop, turn, river)", [...d.flop, d.turn, d.river], pos);
    if (shownAt.size) {
      $("deal-note").hidden = false;
      $("deal-note").textContent = "Each card outlined is what the seeds deal; the card you were shown there is drawn beside it, marked \"shown\".";
    }
    if (showdown && win.size) {
      $("deal-note").hidden = false;
      $("deal-note").textContent += (shownAt.size ? " " : "") + (v.game === "double-holdem"
        ? `"wins at a showdown" is who would win with these cards had every player checked to the river: ${showdown}.`
        : `"wins at a showdown" is who would win with these cards had every box called: ${showdown}.`);
    }
  }

  function drawSettlement(s, money, currency) {
    $("settlement-box").hidden = false;
    const out = $("settlement");
    const units = currency ? `Amounts in ${currency}.` : "Amounts in minor units: give the currency to see them in its units.";
    out.append(el("p", { text: `Settled under the built-in profile "${s.profile}" (SHA-256 ${s.profile_hash.slice(0, 16)}…). ${units}` }));
    if (s.boxes) {
      const t = el("table", { class: "settle" }, el("caption", { class: "sr-only", text: "Each bet's stake and return" }),
        el("thead", {}, el("tr", {}, ...["Box", "Bet", "Stake", "Return", "Why"].map((h) => el("th", { scope: "col", text: h })))));
      const body = el("tbody");
      for (const b of s.boxes) {
        const why = REASONS[b.reason] || b.reason;
        const hands = b.player_hand ? ` (${handWords(b.player_hand)} against ${handWords(b.dealer_hand)})` : "";
        body.append(el("tr", {}, el("td", { text: String(b.box) }), el("td", { text: "ANTE" }), el("td", { text: money(b.ante) }),
          el("td", { text: money(b.ante_return) }), el("td", { text: why + hands })));
        if (b.call > 0) body.append(el("tr", {}, el("td", { text: String(b.box) }), el("td", { text: "CALL" }), el("td", { text: money(b.call) }), el("td", { text: money(b.call_return) }), el("td", { text: why })));
        if (b.bonus > 0) body.append(el("tr", {}, el("td", { text: String(b.box) }), el("td", { text: "AA Bonus" }), el("td", { text: money(b.bonus) }), el("td", { text: money(b.bonus_return) }),
          el("td", { text: (REASONS[b.bonus_reason] || b.bonus_reason) + (b.bonus_hand ? ` (${handWords(b.bonus_hand)})` : "") })));
      }
      t.append(body);
      out.append(t);
    }
    if (s.double) {
      const d = s.double;
      const ul = el("ul");
      d.pots.forEach((p, i) => ul.append(el("li", { text: `${i === 0 ? "Main pot" : "Side pot " + i}: ${money(p.amount)}, won by seat ${p.winners.join(" and ")} (${p.shares.map(money).join(" / ")})` })));
      if (d.rake) ul.append(el("li", { text: `Rake: ${money(d.rake)}` }));
      for (const [seat, st] of Object.entries(d.stack_after || {})) ul.append(el("li", { text: `Seat ${seat}: stack after ${money(st)}` }));
      out.append(ul);
    }
    out.append(el("p", { class: "totals", text: `Staked ${money(s.totals.staked)}, returned ${money(s.totals.returned)}.` }));
  }

  // ---------------------------------------------------------------------
  // Many rounds at once: one a line, a table of results.

  const MAX_BATCH = 5000;

  // roundOfLine reads one line: a link to the page (or its fragment), a
  // round in JSON, or a round record (docs/log-format.md; the WebAssembly
  // build's fromRecord makes its round, as `fairhold replay --explain`
  // does). It returns {round, id}, {error, id}, or null for a line to skip
  // (empty, or a JSON Lines log's header).
  function roundOfLine(line, fh) {
    const t = line.trim();
    if (t === "") return null;
    const at = t.indexOf("#r=");
    const frag = at >= 0 ? t.slice(at + 3) : t.startsWith("r=") ? t.slice(2) : null;
    if (frag !== null) {
      try {
        return { round: JSON.parse(b64urlDecode(frag)) };
      } catch (e) {
        return { error: `the link's round cannot be read: ${e.message}` };
      }
    }
    if (!t.startsWith("{")) return { error: "not a link to this page, a round or a round record" };
    let o;
    try {
      o = JSON.parse(t);
    } catch (e) {
      return { error: `not JSON: ${e.message}` };
    }
    if (Object.keys(o).length === 1 && o.schema_version !== undefined) return null;
    if (o.round_id !== undefined && o.fairness !== undefined) {
      const r = JSON.parse(fh.fromRecord(t));
      if (r.verdict === "error") return { error: r.error, id: String(o.round_id) };
      return { round: r, id: String(o.round_id) };
    }
    return { round: o };
  }

  function roundName(got) {
    if (got.id) return got.id;
    const r = got.round || {};
    if (r.round && typeof r.round === "object" && r.round.round_id) return String(r.round.round_id);
    return r.nonce !== undefined ? `nonce ${r.nonce}` : "";
  }

  // showRound shows one round of the table alone, as its link would.
  function showRound(v) {
    history.replaceState(null, "", `#r=${b64urlEncode(JSON.stringify(v))}`);
    fillForm(v);
    run(v);
  }

  async function runBatch(text) {
    const rows = $("batch-rows");
    rows.textContent = "";
    $("batch-result").hidden = false;
    document.body.setAttribute("data-batch", "checking");
    const fh = await loadWasm();
    const lines = text.split(/\r?\n/);
    const counts = { verified: 0, failed: 0, "cannot check": 0, partial: 0 };
    let n = 0;
    let cut = false;
    for (let i = 0; i < lines.length; i++) {
      const got = roundOfLine(lines[i], fh);
      if (!got) continue;
      if (n === MAX_BATCH) { cut = true; break; }
      n++;
      $("batch-summary").textContent = `Checking round ${n}…`;
      let v;
      if (got.error) v = { kind: "error", short: "cannot check", why: got.error, hints: [] };
      else {
        let res;
        try {
          res = await check(got.round);
        } catch (e) {
          res = { error: e && e.message ? e.message : String(e) };
        }
        v = verdictOf(res);
      }
      counts[v.short]++;
      const likely = v.hints.find((h) => h.confirmed);
      const why = likely ? `Likely a copying mistake: ${likely.text}` : v.hints.length && v.kind === "failed" ? `${v.why}. ${v.hints[v.hints.length - 1].text}` : v.why;
      const slug = v.short.replace(/ /g, "-");
      const open = got.round ? el("button", { type: "button", class: "open-round", text: "Show" }) : null;
      if (open) open.addEventListener("click", () => showRound(got.round));
      rows.append(el("tr", { "data-result": slug, "data-line": i + 1 },
        el("td", { text: String(i + 1) }), el("td", { text: roundName(got) }),
        el("td", { class: `result-${slug}`, text: v.short === "failed" ? "FAILED" : v.short }),
        el("td", { text: why }), el("td", {}, open)));
    }
    const parts = [`${counts.verified} verified`, `${counts.failed} failed`, `${counts["cannot check"]} cannot be checked`];
    if (counts.partial) parts.push(`${counts.partial} partial`);
    $("batch-summary").textContent = n === 0
      ? "No rounds found: give one link, round or round record a line."
      : `${n} round${n === 1 ? "" : "s"}: ${parts.join(", ")}.${cut ? ` Only the first ${MAX_BATCH} were checked.` : ""}`;
    document.body.setAttribute("data-batch", "done");
  }

  // ---------------------------------------------------------------------
  // Wiring.

  async function run(v) {
    $("status").textContent = "Checking…";
    document.body.setAttribute("data-state", "checking");
    const message = (e) => (e && e.message ? e.message : String(e));
    let res;
    try {
      res = await check(v);
    } catch (e) {
      res = { error: message(e) };
    }
    try {
      showResult(res);
    } catch (e) {
      // Never left on "Checking…": a result the page cannot show is said.
      showResult({ error: `the result cannot be shown (${message(e)}); please report it` });
    }
    $("status").textContent = "";
    document.body.setAttribute("data-state", "done");
  }

  function fromFragment() {
    const h = location.hash.replace(/^#/, "");
    if (!h.startsWith("r=")) return null;
    try {
      return JSON.parse(b64urlDecode(h.slice(2)));
    } catch (e) {
      showResult({ error: `the link's round cannot be read: ${e.message}` });
      return undefined;
    }
  }

  function start() {
    $("game").addEventListener("change", updateGameFields);
    $("hands").addEventListener("change", renderBetRows);
    $("round").addEventListener("submit", (e) => {
      e.preventDefault();
      run(roundFromForm());
    });
    $("make-link").addEventListener("click", () => {
      const v = roundFromForm();
      if (typeof v.claimed_cards === "string" && globalThis.fairholdDeal) {
        try { v.claimed_cards = globalThis.fairholdDeal.parseCards(v.claimed_cards, { duplicates: v.scheme === "stake-compat" }); } catch (e) { /* kept as text */ }
      }
      if (typeof v.round === "string") { try { v.round = JSON.parse(v.round); } catch (e) { /* kept as text */ } }
      const link = location.href.split("#")[0] + "#r=" + b64urlEncode(JSON.stringify(v));
      $("link").value = link;
      $("link-out").hidden = false;
      $("link").focus();
      $("link").select();
    });
    $("batch-check").addEventListener("click", () => runBatch($("batch-input").value));
    $("batch-file").addEventListener("change", () => {
      const f = $("batch-file").files && $("batch-file").files[0];
      if (!f) return;
      f.text().then((text) => {
        $("batch-input").value = text;
        return runBatch(text);
      }, (e) => { $("batch-result").hidden = false; $("batch-summary").textContent = `The file cannot be read: ${e.message}`; });
    });
    window.addEventListener("hashchange", () => {
      const v = fromFragment();
      if (v) { fillForm(v); run(v); }
    });
    updateGameFields();
    if (!globalThis.crypto || !globalThis.crypto.subtle) {
      // WebCrypto exists only in a secure context.
      $("status").textContent = "This page cannot check anything here: browsers give it the cryptography it needs only on https://, "
        + "on localhost, or opened from a saved file. Open it one of those ways.";
      $("status").className = "status fail";
      document.body.setAttribute("data-state", "broken");
      return;
    }
    loadWasm().then((fh) => {
      $("version").textContent = `WebAssembly ${fh.version}.`;
      $("status").textContent = "";
      document.body.setAttribute("data-state", "ready");
      const v = fromFragment();
      if (v) { fillForm(v); run(v); }
    }, (e) => {
      $("status").textContent = `The verifier could not start: ${e.message}`;
      $("status").className = "status fail";
      document.body.setAttribute("data-state", "broken");
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
