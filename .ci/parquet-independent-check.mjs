// Independent check of the round log format (docs/log-format.md): read a
// simulated Parquet dataset with hyparquet, a pure-JavaScript Parquet
// reader that shares no code with fairhold, and compare it with the JSON
// Lines form of the same rounds.
//
// usage: node parquet-independent-check.mjs PARQUET_DIR ROUNDS.jsonl
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet'

const [dir, jsonl] = process.argv.slice(2)
const fail = (msg) => { console.error(`parquet-independent-check: ${msg}`); process.exit(1) }

const lines = readFileSync(jsonl, 'utf8').split('\n').filter((l) => l.trim() !== '')
const header = JSON.parse(lines[0])
if (header.schema_version !== '1.1') fail(`${jsonl}: header ${lines[0]}`)
const want = lines.slice(1).map((l) => JSON.parse(l))

const iso = (v) => {
  if (v === null || v === undefined) return ''
  if (v instanceof Date) return v.toISOString()
  if (typeof v === 'bigint') return new Date(Number(v / 1000n)).toISOString()
  return new Date(v).toISOString()
}
const same = (what, got, exp) => {
  const g = typeof got === 'bigint' ? got.toString() : JSON.stringify(got)
  const e = typeof exp === 'bigint' ? exp.toString() : JSON.stringify(exp)
  if (String(g) !== String(e) && !(typeof got === 'bigint' && got.toString() === String(exp))) {
    fail(`${what}: parquet ${g}, json lines ${e}`)
  }
}
const num = (v) => (v === null || v === undefined ? 0 : Number(v))

async function table(path) {
  const file = await asyncBufferFromFile(path)
  const meta = await parquetMetadataAsync(file)
  const kv = Object.fromEntries((meta.key_value_metadata || []).map((e) => [e.key, e.value]))
  if (kv['fairhold.schema_version'] !== '1.1') fail(`${path}: schema version ${kv['fairhold.schema_version']}`)
  const rows = await parquetReadObjects({ file })
  if (rows.length !== Number(meta.num_rows)) fail(`${path}: ${rows.length} rows read, footer says ${meta.num_rows}`)
  return rows
}

const parts = readdirSync(dir).filter((f) => f.endsWith('.rounds.parquet')).sort()
if (parts.length === 0) fail(`${dir}: no *.rounds.parquet`)
let rounds = []
const children = { boxes: [], seats: [], actions: [], pots: [] }
for (const p of parts) {
  const base = rounds.length
  rounds = rounds.concat(await table(join(dir, p)))
  for (const t of Object.keys(children)) {
    const f = p.replace('.rounds.parquet', `.${t}.parquet`)
    if (readdirSync(dir).includes(f)) {
      for (const r of await table(join(dir, f))) children[t].push({ ...r, base })
    }
  }
}
same('round count', rounds.length, want.length)

// Child rows grouped by round, in order.
const byRound = {}
for (const [t, rows] of Object.entries(children)) {
  for (const r of rows) {
    const k = r.round_id
    ;(byRound[k] ||= { boxes: [], seats: [], actions: [], pots: [] })[t].push(r)
  }
}

let checked = 0
for (let i = 0; i < rounds.length; i++) {
  const r = rounds[i]
  const w = want[i]
  const at = `round ${i} (${w.round_id})`
  same(`${at} round_id`, r.round_id, w.round_id)
  same(`${at} game`, r.game, w.game)
  same(`${at} table_seq`, num(r.table_seq), w.table_seq || 0)
  same(`${at} time`, Date.parse(iso(r.time)), Date.parse(w.time))
  same(`${at} server_seed`, r.server_seed, w.fairness.server_seed)
  same(`${at} commitment`, r.commitment, w.fairness.commitment)
  same(`${at} nonce`, num(r.nonce), w.fairness.nonce)
  same(`${at} client_seeds`, r.client_seeds, w.fairness.client_seeds)
  const board = [r.board_1, r.board_2, r.board_3, r.board_4, r.board_5].filter((c) => c !== null && c !== undefined)
  same(`${at} board`, board, w.board)
  same(`${at} void`, r.void, w.void || false)
  const kids = byRound[r.round_id] || { boxes: [], seats: [], actions: [], pots: [] }
  same(`${at} n_boxes`, num(r.n_boxes), (w.boxes || []).length)
  same(`${at} boxes rows`, kids.boxes.length, (w.boxes || []).length)
  kids.boxes.forEach((b, k) => {
    const e = w.boxes[k]
    same(`${at} box ${k} cards`, [b.card_1, b.card_2], e.cards)
    same(`${at} box ${k} ante`, num(b.ante), e.ante)
    same(`${at} box ${k} call`, num(b.call), e.call)
    same(`${at} box ${k} ante_return`, num(b.ante_return), e.ante_return)
    same(`${at} box ${k} balance_after`, num(b.balance_after), e.balance_after)
  })
  if (w.double) {
    same(`${at} seats rows`, kids.seats.length, w.double.seats.length)
    same(`${at} actions rows`, kids.actions.length, w.double.actions.length)
    same(`${at} pots rows`, kids.pots.length, w.double.pots.length)
    kids.seats.forEach((s, k) => {
      const e = w.double.seats[k]
      same(`${at} seat ${k} cards`, [s.card_1, s.card_2, s.card_3], e.cards)
      same(`${at} seat ${k} stack_after`, num(s.stack_after), e.stack_after)
    })
    kids.pots.forEach((p, k) => {
      const e = w.double.pots[k]
      same(`${at} pot ${k} amount`, num(p.amount), e.amount)
      same(`${at} pot ${k} winners`, p.winners.map(Number), e.winners)
      same(`${at} pot ${k} shares`, p.shares.map(Number), e.shares)
    })
  }
  checked++
}
console.log(`parquet-independent-check: ${dir}: ${checked} rounds match the JSON Lines form (hyparquet)`)
