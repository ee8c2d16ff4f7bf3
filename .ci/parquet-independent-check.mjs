// Independent check of the round log format (docs/log-format.md): read a
// simulated Parquet dataset (one folder per table) with hyparquet, a
// pure-JavaScript Parquet reader that shares no code with fairhold, and
// compare it with the JSON Lines form of the same rounds; then check the
// dataset's manifest.json (section 8) with Node's own SHA-256 and, given
// the public key, its Ed25519 signature.
//
// usage: node parquet-independent-check.mjs PARQUET_DIR ROUNDS.jsonl [PUB.pem]
import { createHash, createPublicKey, verify } from 'node:crypto'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet'

const [dir, jsonl, pubPem] = process.argv.slice(2)
const fail = (msg) => { console.error(`parquet-independent-check: ${msg}`); process.exit(1) }

const lines = readFileSync(jsonl, 'utf8').split('\n').filter((l) => l.trim() !== '')
const header = JSON.parse(lines[0])
if (header.schema_version !== '1.2') fail(`${jsonl}: header ${lines[0]}`)
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
  if (kv['fairhold.schema_version'] !== '1.2') fail(`${path}: schema version ${kv['fairhold.schema_version']}`)
  const rows = await parquetReadObjects({ file })
  if (rows.length !== Number(meta.num_rows)) fail(`${path}: ${rows.length} rows read, footer says ${meta.num_rows}`)
  return rows
}

// One folder per table: rounds/part-00000.parquet, boxes/part-00000.parquet, ...
const parts = readdirSync(join(dir, 'rounds')).filter((f) => f.endsWith('.parquet') && !f.startsWith('.')).sort()
if (parts.length === 0) fail(`${dir}: no rounds/*.parquet`)
let rounds = []
const partRounds = {} // part name -> its rounds rows
const children = { boxes: [], seats: [], actions: [], pots: [] }
for (const p of parts) {
  const base = rounds.length
  const rows = await table(join(dir, 'rounds', p))
  partRounds[p.replace(/\.parquet$/, '')] = rows
  rounds = rounds.concat(rows)
  for (const t of Object.keys(children)) {
    const f = join(dir, t, p)
    if (existsSync(f)) {
      for (const r of await table(f)) children[t].push({ ...r, base })
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
  same(`${at} wallet_ids`, r.wallet_ids ?? [], w.wallet_ids ?? [])
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

// The manifest: every file's SHA-256, size and rows, every part's rounds,
// first and last round ids and time range, and the signature over the
// exact bytes of manifest.json.
const mbytes = readFileSync(join(dir, 'manifest.json'))
const m = JSON.parse(mbytes.toString('utf8'))
same('manifest format', m.format, 'fairhold-dataset-manifest')
same('manifest version', m.version, 1)
same('manifest parts', m.parts.map((p) => p.name), Object.keys(partRounds).sort())
let files = 0
for (const p of m.parts) {
  for (const f of p.files) {
    const path = join(dir, ...f.path.split('/'))
    const b = readFileSync(path)
    same(`${f.path} sha256`, createHash('sha256').update(b).digest('hex'), f.sha256)
    same(`${f.path} bytes`, b.length, f.bytes)
    const meta = await parquetMetadataAsync(await asyncBufferFromFile(path))
    same(`${f.path} rows`, Number(meta.num_rows), f.rows)
    files++
  }
  const rows = partRounds[p.name]
  same(`${p.name} rounds`, rows.length, p.rounds)
  same(`${p.name} first_round_id`, rows[0].round_id, p.first_round_id)
  same(`${p.name} last_round_id`, rows[rows.length - 1].round_id, p.last_round_id)
  const times = rows.map((r) => Date.parse(iso(r.time)))
  same(`${p.name} min_time`, Math.min(...times), Date.parse(p.min_time))
  same(`${p.name} max_time`, Math.max(...times), Date.parse(p.max_time))
}
if (pubPem) {
  const sig = readFileSync(join(dir, 'manifest.json.sig'))
  if (!verify(null, mbytes, createPublicKey(readFileSync(pubPem)), sig)) fail(`${dir}/manifest.json.sig: the Ed25519 signature does not verify`)
}
console.log(`parquet-independent-check: ${dir}: manifest.json matches ${files} files of ${m.parts.length} parts (node:crypto)${pubPem ? ', signature verified' : ''}`)
