// Cross-writer matrix (docs/log-format.md, section 3.5): the same round log
// written by fairhold, by DuckDB (COPY ... TO, its default encodings,
// compression and page version) and by hyparquet-writer (its defaults) must
// replay to the same summary and the same findings file, byte for byte.
//
// usage:
//   node cross-writer.mjs matrix FAIRHOLD WORKDIR [DOCS]
//       simulate every game with faults, write each log with the three
//       writers, replay each and compare (what .ci/cross-writer runs);
//       with DOCS (docs/log-format.md), check first that the COPY
//       statement it shows is the one this script runs
//   node cross-writer.mjs sql
//       print that statement
//   node cross-writer.mjs write duckdb|hyparquet ROUNDS.jsonl OUTDIR [--void-row N] [--foreign] [--duckdb-options OPTS]
//       write one JSON Lines log as a Parquet dataset; --void-row N makes
//       row N the only void round; --foreign writes hyparquet-writer's
//       default schema (every column optional), the columns in reverse
//       order and an extra column (how replay/roundlog/testdata/writers
//       was made); --duckdb-options adds COPY options (", COMPRESSION zstd")
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { DuckDBInstance } from '@duckdb/node-api'
import { parquetWriteFile } from 'hyparquet-writer'

const fail = (msg) => { console.error(`cross-writer: ${msg}`); process.exit(1) }

// ---------------------------------------------------------------------------
// The dataset layout: the one place that knows where a table's part lives.
// The folder-per-table layout (docs/log-format.md 3.1): DIR/rounds/part-00000.parquet,
// DIR/boxes/part-00000.parquet, ...
function tablePath(dir, table, part) {
  return path.join(dir, table, `part-${String(part).padStart(5, '0')}.parquet`)
}

// ---------------------------------------------------------------------------
// The tables of docs/log-format.md, section 3: [column, type, required, value].
// Types: STRING, INT32, INT64, TIMESTAMP (µs, UTC), BOOLEAN, LIST<...>.
// value(row) reads the column from a round (rounds) or a child record.
const req = true
const opt = false
const card = (list, i) => (r) => r[list]?.[i]
const fair = (k) => (r) => r.fairness[k]
const dbl = (k) => (r) => r.double?.[k]
const count = (f) => (r) => (f(r) ?? []).length

const TABLES = {
  rounds: [
    ['round_id', 'STRING', req, (r) => r.round_id],
    ['game', 'STRING', req, (r) => r.game],
    ['table_id', 'STRING', req, (r) => r.table_id],
    ['time', 'TIMESTAMP', req, (r) => r.time],
    ['currency', 'STRING', req, (r) => r.currency],
    ['profile', 'STRING', req, (r) => r.profile],
    ['profile_hash', 'STRING', opt, (r) => r.profile_hash],
    ['scheme', 'STRING', req, fair('scheme')],
    ['commitment', 'STRING', req, fair('commitment')],
    ['committed_at', 'TIMESTAMP', opt, fair('committed_at')],
    ['server_seed', 'STRING', req, fair('server_seed')],
    ['revealed_at', 'TIMESTAMP', opt, fair('revealed_at')],
    ['chain_index', 'INT64', opt, fair('chain_index')],
    ['client_seeds', 'LIST<STRING>', req, (r) => r.fairness.client_seeds ?? []],
    ['nonce', 'INT64', req, (r) => r.fairness.nonce ?? 0],
    ['beacon_chain', 'STRING', opt, fair('beacon_chain')],
    ['beacon_round', 'INT64', opt, fair('beacon_round')],
    ['beacon_signature', 'STRING', opt, fair('beacon_signature')],
    ['beacon_previous_signature', 'STRING', opt, fair('beacon_previous_signature')],
    ['dealer_1', 'STRING', opt, card('dealer', 0)],
    ['dealer_2', 'STRING', opt, card('dealer', 1)],
    ['board_1', 'STRING', opt, card('board', 0)],
    ['board_2', 'STRING', opt, card('board', 1)],
    ['board_3', 'STRING', opt, card('board', 2)],
    ['board_4', 'STRING', opt, card('board', 3)],
    ['board_5', 'STRING', opt, card('board', 4)],
    ['void', 'BOOLEAN', req, (r) => r.void ?? false],
    ['void_reason', 'STRING', opt, (r) => r.void_reason],
    ['button', 'INT32', opt, dbl('button')],
    ['small_blind', 'INT64', opt, dbl('small_blind')],
    ['big_blind', 'INT64', opt, dbl('big_blind')],
    ['rake', 'INT64', opt, dbl('rake')],
    ['n_boxes', 'INT32', req, count((r) => r.boxes)],
    ['n_seats', 'INT32', req, count((r) => r.double?.seats)],
    ['n_actions', 'INT32', req, count((r) => r.double?.actions)],
    ['n_pots', 'INT32', req, count((r) => r.double?.pots)],
  ],
  boxes: [
    ['box', 'INT32', req, (b) => b.box],
    ['player_id', 'STRING', req, (b) => b.player_id],
    ['card_1', 'STRING', req, card('cards', 0)],
    ['card_2', 'STRING', req, card('cards', 1)],
    ['ante_requested', 'INT64', req, (b) => b.ante_requested ?? 0],
    ['ante', 'INT64', req, (b) => b.ante ?? 0],
    ['bonus_requested', 'INT64', req, (b) => b.bonus_requested ?? 0],
    ['bonus', 'INT64', req, (b) => b.bonus ?? 0],
    ['decision', 'STRING', req, (b) => b.decision ?? ''],
    ['call', 'INT64', req, (b) => b.call ?? 0],
    ['ante_return', 'INT64', req, (b) => b.ante_return ?? 0],
    ['call_return', 'INT64', req, (b) => b.call_return ?? 0],
    ['bonus_return', 'INT64', req, (b) => b.bonus_return ?? 0],
    ['balance_before', 'INT64', req, (b) => b.balance_before ?? 0],
    ['balance_after', 'INT64', req, (b) => b.balance_after ?? 0],
  ],
  seats: [
    ['seat', 'INT32', req, (s) => s.seat],
    ['player_id', 'STRING', req, (s) => s.player_id],
    ['card_1', 'STRING', req, card('cards', 0)],
    ['card_2', 'STRING', req, card('cards', 1)],
    ['card_3', 'STRING', req, card('cards', 2)],
    ['bonus_card', 'STRING', opt, (s) => s.bonus_card],
    ['bonus_auto', 'BOOLEAN', req, (s) => s.bonus_auto ?? false],
    ['stack_before', 'INT64', req, (s) => s.stack_before ?? 0],
    ['stack_after', 'INT64', req, (s) => s.stack_after ?? 0],
  ],
  actions: [
    ['seq', 'INT32', req, (a, k) => k],
    ['seat', 'INT32', req, (a) => a.seat],
    ['street', 'STRING', req, (a) => a.street],
    ['kind', 'STRING', req, (a) => a.kind],
    ['amount', 'INT64', req, (a) => a.amount ?? 0],
    ['all_in', 'BOOLEAN', req, (a) => a.all_in ?? false],
  ],
  pots: [
    ['pot', 'INT32', req, (p, k) => k],
    ['amount', 'INT64', req, (p) => p.amount ?? 0],
    ['eligible', 'LIST<INT32>', req, (p) => p.eligible ?? []],
    ['winners', 'LIST<INT32>', req, (p) => p.winners ?? []],
    ['shares', 'LIST<INT64>', req, (p) => p.shares ?? []],
  ],
}
// Optional columns of schema versions 1.1 (table numbering, client-seed
// rotation) and 1.2 (wallet ids): written only when the log has the field
// (wallet_ids, a list, as the required lists are: an empty list for none).
const LATER = {
  rounds: [
    ['table_seq', 'INT64', opt, (r) => r.table_seq],
    ['client_seed_rotated', 'BOOLEAN', opt, fair('client_seed_rotated')],
    ['wallet_ids', 'LIST<STRING>', req, (r) => r.wallet_ids],
  ],
}
// Every child row starts with its round's id and row.
const KEYS = [['round_id', 'STRING', req, null], ['round_row', 'INT64', req, null]]
const CHILDREN = {
  boxes: (r) => r.boxes,
  seats: (r) => r.double?.seats,
  actions: (r) => r.double?.actions,
  pots: (r) => r.double?.pots,
}

// readLog reads a JSON Lines log: its schema version and its rounds.
// Numbers are read as JavaScript numbers: exact below 2^53, which the
// simulated logs' amounts, nonces and rounds are, far.
function readLog(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '')
  let version = '1.0'
  if (lines.length && JSON.parse(lines[0]).schema_version !== undefined) {
    version = JSON.parse(lines.shift()).schema_version
  }
  return { version, rounds: lines.map((l) => JSON.parse(l)) }
}

// flatten turns rounds into the tables' columns: {table: {cols, rows}},
// cols the column specs, rows arrays of values (null for absent).
function flatten(rounds) {
  const out = {}
  const absent = (v) => v === undefined || v === null || v === ''
  const rcols = [...TABLES.rounds, ...LATER.rounds.filter(([, , , f]) => rounds.some((r) => !absent(f(r))))]
  out.rounds = { cols: rcols, rows: [] }
  for (const t of Object.keys(CHILDREN)) out[t] = { cols: [...KEYS, ...TABLES[t]], rows: [] }
  rounds.forEach((r, i) => {
    out.rounds.rows.push(rcols.map(([, , required, f]) => (absent(f(r)) && !required ? null : f(r))))
    for (const [t, list] of Object.entries(CHILDREN)) {
      (list(r) ?? []).forEach((c, k) => {
        out[t].rows.push([r.round_id, i, ...TABLES[t].map(([, , required, f]) => (absent(f(c, k)) && !required ? null : f(c, k)))])
      })
    }
  })
  return out
}

// micros converts an RFC 3339 UTC time to microseconds since 1970, keeping
// every digit of the fraction down to the microsecond.
function micros(s) {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(s)
  if (!m) fail(`time ${JSON.stringify(s)}: want RFC 3339 ending in Z`)
  const frac = (m[2] ?? '').padEnd(6, '0').slice(0, 6)
  return BigInt(Date.parse(m[1] + 'Z')) * 1000n + BigInt(frac)
}

// ---------------------------------------------------------------------------
// hyparquet-writer, with its defaults: SNAPPY, data pages v2, its own
// choice of encodings (RLE for booleans, dictionaries where they pay),
// row groups of 1,000 rows then 100,000. The schema is the specification's
// (required columns REQUIRED); the child tables' row groups end where the
// rounds' do (docs/log-format.md 3.1, "Row groups").
const HYPARQUET_GROUPS = [1000, 100000] // hyparquet-writer's default rowGroupSize

function hyparquetElement(name, type, required) {
  const rep = required ? 'REQUIRED' : 'OPTIONAL'
  const leaf = {
    STRING: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
    INT32: { type: 'INT32', converted_type: 'INT_32' },
    INT64: { type: 'INT64', converted_type: 'INT_64' },
    BOOLEAN: { type: 'BOOLEAN' },
    TIMESTAMP: { type: 'INT64', converted_type: 'TIMESTAMP_MICROS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } },
  }
  const m = /^LIST<(.*)>$/.exec(type)
  if (!m) return [{ name, repetition_type: rep, ...leaf[type] }]
  return [
    { name, repetition_type: rep, converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', repetition_type: 'REQUIRED', ...leaf[m[1]] },
  ]
}

function hyparquetValue(type, v) {
  if (v === null) return null
  switch (type) {
    case 'INT64': return BigInt(v)
    case 'TIMESTAMP': return micros(v)
    case 'LIST<INT64>': return v.map((x) => BigInt(x))
    default: return v
  }
}

// groupSizes splits n rows into hyparquet-writer row groups.
function groupSizes(n, sizes) {
  const out = []
  for (let i = 0, done = 0; done < n; i++) {
    const k = Math.min(sizes[Math.min(i, sizes.length - 1)], n - done)
    out.push(k)
    done += k
  }
  return out
}

// Compressors for codecs hyparquet-writer leaves to its caller.
const COMPRESSORS = {
  GZIP: (b) => new Uint8Array(zlib.gzipSync(b)),
  BROTLI: (b) => new Uint8Array(zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })),
}

// writeHyparquet writes the tables with hyparquet-writer. encodings maps a
// column type (STRING, INT32, INT64, TIMESTAMP, BOOLEAN) to the encoding
// every column of that type (lists: their elements) gets; codec is the
// compression (default SNAPPY).
function writeHyparquet(dir, version, tables, { foreign = false, encodings = {}, codec } = {}) {
  const roundGroups = groupSizes(tables.rounds.rows.length, HYPARQUET_GROUPS)
  for (const [table, { cols, rows }] of Object.entries(tables)) {
    if (rows.length === 0) continue
    let sizes = roundGroups
    if (table !== 'rounds') {
      // The child rows of each rounds row group, by round_row.
      const ends = []
      roundGroups.reduce((e, k) => { ends.push(e + k); return e + k }, 0)
      sizes = ends.map(() => 0)
      let g = 0
      for (const row of rows) {
        while (row[1] >= ends[g]) g++
        sizes[g]++
      }
      sizes = sizes.filter((k) => k > 0) // no row group when there are none
    }
    let order = cols.map((c, i) => i)
    if (foreign) order = order.reverse()
    const columnData = order.map((i) => {
      const [name, type] = cols[i]
      const encoding = encodings[/^LIST<(.*)>$/.exec(type)?.[1] ?? type]
      return { name, data: rows.map((row) => hyparquetValue(type, row[i])), ...(encoding ? { encoding } : {}) }
    })
    let schema = [{ name: 'root', num_children: order.length }]
    for (const i of order) {
      const [name, type, required] = cols[i]
      schema.push(...hyparquetElement(name, type, required && !foreign))
    }
    if (foreign) {
      // hyparquet-writer's own schema for an extra column nobody asked for.
      columnData.push({ name: 'operator_note', data: rows.map((_, k) => `note ${k}`) })
      schema = [{ ...schema[0], num_children: order.length + 1 }, ...schema.slice(1), { name: 'operator_note', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }]
    }
    const filename = tablePath(dir, table, 0)
    fs.mkdirSync(path.dirname(filename), { recursive: true })
    parquetWriteFile({
      filename,
      columnData,
      schema,
      ...(codec ? { codec, compressors: COMPRESSORS } : {}),
      rowGroupSize: sizes,
      kvMetadata: [{ key: 'fairhold.schema_version', value: version }, { key: 'fairhold.table', value: table }],
    })
  }
}

// ---------------------------------------------------------------------------
// DuckDB, with its defaults: COPY ... TO 'x.parquet' (FORMAT parquet) writes
// SNAPPY, data pages v1, PLAIN or dictionary encodings, every column
// OPTIONAL, one row group per 122,880 rows (one here: every table of a
// part must break at the same rounds). The rows go in once, as JSON text,
// into tables TABLE_src; copySQL's statement (the one docs/log-format.md
// shows) casts each column to its type and writes the file.
const DUCK_TYPES = {
  STRING: 'VARCHAR', INT32: 'INTEGER', INT64: 'BIGINT', BOOLEAN: 'BOOLEAN', TIMESTAMP: 'TIMESTAMPTZ',
  'LIST<STRING>': 'VARCHAR[]', 'LIST<INT32>': 'INTEGER[]', 'LIST<INT64>': 'BIGINT[]',
}
const ident = (s) => (/^[a-z_][a-z0-9_]*$/.test(s) ? s : `"${s.replaceAll('"', '""')}"`)
const literal = (s) => `'${s.replaceAll("'", "''")}'`

// copySQL writes table from TABLE_src (the columns by name, of types DuckDB
// casts, and log_order, the order of the rows) to file.
function copySQL(table, cols, version, file, options = '') {
  const select = cols.map(([n, t]) => `    CAST(${ident(n)} AS ${DUCK_TYPES[t]}) AS ${ident(n)}`).join(',\n')
  return `COPY (
  SELECT
${select}
  FROM ${table}_src
  ORDER BY log_order
) TO ${literal(file)} (
  FORMAT parquet${options},
  KV_METADATA {'fairhold.schema_version': ${literal(version)}, 'fairhold.table': ${literal(table)}}
);`
}

// duckDB loads the tables into DuckDB and returns a function that writes
// them as a dataset in dir, with COPY options ("", ", COMPRESSION zstd").
async function duckDB(version, tables, tmp) {
  const db = await DuckDBInstance.create(':memory:')
  const con = await db.connect()
  const loaded = []
  for (const [table, { cols, rows }] of Object.entries(tables)) {
    if (rows.length === 0) continue
    if (rows.length > 122880) fail(`${table}: ${rows.length} rows need more than one DuckDB row group`)
    const src = path.join(tmp, `${table}.ndjson`)
    fs.writeFileSync(src, rows.map((row, k) => JSON.stringify(Object.fromEntries([['log_order', k], ...cols.map(([n], i) => [n, row[i]])]))).join('\n') + '\n')
    const raw = cols.map(([n, t]) => `${ident(n)}: ${literal(t.startsWith('LIST') ? 'JSON' : 'VARCHAR')}`).join(', ')
    await con.run(`CREATE TABLE ${table}_src AS SELECT * FROM read_json(${literal(src)}, format = 'newline_delimited', columns = {log_order: 'BIGINT', ${raw}})`)
    loaded.push([table, cols])
  }
  return async (dir, options = '') => {
    for (const [table, cols] of loaded) {
      const file = tablePath(dir, table, 0)
      fs.mkdirSync(path.dirname(file), { recursive: true })
      await con.run(copySQL(table, cols, version, file, options))
    }
  }
}

// ---------------------------------------------------------------------------

// load reads a JSON Lines log into tables; voidRow >= 0 makes that row the
// only void round.
function load(jsonl, voidRow = -1) {
  const log = readLog(jsonl)
  if (voidRow >= 0) {
    log.rounds.forEach((r, i) => {
      if (i === voidRow) {
        r.void = true
        r.void_reason = 'malfunction'
      } else {
        delete r.void
        delete r.void_reason
      }
    })
  }
  return { version: log.version, tables: flatten(log.rounds) }
}

// writers returns the log's writers: (name, dir, options) writes it.
async function writers(log, tmp) {
  const duck = await duckDB(log.version, log.tables, tmp)
  return async (writer, dir, { foreign = false, encodings, codec, duckdb = '' } = {}) => {
    fs.mkdirSync(dir, { recursive: true })
    if (writer === 'hyparquet') writeHyparquet(dir, log.version, log.tables, { foreign, encodings, codec })
    else if (writer === 'duckdb') await duck(dir, duckdb)
    else fail(`unknown writer ${writer}`)
  }
}

function run(bin, args, cwd) {
  const r = spawnSync(bin, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 })
  if (r.error) fail(`${bin} ${args.join(' ')}: ${r.error.message}`)
  return r
}

// The games, each with faults its replay must report (docs/findings.md).
const GAMES = {
  'casino-holdem': 'balance-off-by-one:0.01,void-not-refunded:0.02,ante-wrong-multiple:0.01,bonus-wrong-multiple:0.01',
  'live-casino-holdem': 'balance-off-by-one:0.01,void-not-refunded:0.02,chain-link-broken:0.01,tie-not-pushed:0.01',
  'double-holdem': 'dh-rake-over-cap:0.01,dh-pot-wrong-winner:0.01,dh-wrong-auto-bonus-card:0.02,dh-chips-not-conserved:0.01',
}
const ROUNDS = 3000

// The encodings, codecs and page versions other than the writers'
// defaults, on the Double Hold'em log (it has a column of every type):
// docs/log-format.md lists them as tested.
const VARIANTS = [
  // V1 SNAPPY is DuckDB's default, in the matrix already; BROTLI (slow to
  // write) and LZ4_RAW (refused) once.
  ...[['V1', ['UNCOMPRESSED', 'GZIP', 'ZSTD', 'BROTLI', 'LZ4_RAW']], ['V2', ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'ZSTD']]]
    .flatMap(([v, codecs]) => codecs.map((c) => ({
      name: `duckdb-${v}-${c}`, writer: 'duckdb', duckdb: `, PARQUET_VERSION ${v}, COMPRESSION ${c}`,
      // parquet-go v0.32 misreads LZ4_RAW pages: the reader refuses them.
      ...(c === 'LZ4_RAW' ? { refused: 'compression LZ4_RAW is not read' } : {}),
    }))),
  { name: 'hyparquet-PLAIN-UNCOMPRESSED', writer: 'hyparquet', codec: 'UNCOMPRESSED',
    encodings: { STRING: 'PLAIN', INT32: 'PLAIN', INT64: 'PLAIN', TIMESTAMP: 'PLAIN', BOOLEAN: 'PLAIN' } },
  { name: 'hyparquet-DELTA-GZIP', writer: 'hyparquet', codec: 'GZIP',
    encodings: { STRING: 'DELTA_BYTE_ARRAY', INT32: 'DELTA_BINARY_PACKED', INT64: 'DELTA_BINARY_PACKED', TIMESTAMP: 'DELTA_BINARY_PACKED', BOOLEAN: 'RLE' } },
  { name: 'hyparquet-DELTA_LENGTH-BROTLI', writer: 'hyparquet', codec: 'BROTLI',
    encodings: { STRING: 'DELTA_LENGTH_BYTE_ARRAY', INT32: 'PLAIN', INT64: 'PLAIN', TIMESTAMP: 'PLAIN', BOOLEAN: 'RLE' } },
  { name: 'hyparquet-BYTE_STREAM_SPLIT', writer: 'hyparquet',
    encodings: { INT32: 'BYTE_STREAM_SPLIT', INT64: 'BYTE_STREAM_SPLIT', TIMESTAMP: 'BYTE_STREAM_SPLIT' } },
  { name: 'hyparquet-RLE_DICTIONARY', writer: 'hyparquet',
    encodings: { STRING: 'RLE_DICTIONARY', INT32: 'RLE_DICTIONARY', INT64: 'RLE_DICTIONARY', TIMESTAMP: 'RLE_DICTIONARY' } },
]

// replay replays the dataset in dir from inside it (so that the findings
// name its files by the same relative paths whoever wrote them) and
// returns its summary without "seconds" and its findings file.
function replay(fairhold, dir, label) {
  const findings = path.join(path.dirname(dir), `findings-${path.basename(dir)}.jsonl`)
  const r = run(fairhold, ['replay', '.', '--json', '--workers', '2', '--findings', path.relative(dir, findings)], dir)
  if (r.status !== 3) fail(`${label}: replay exit ${r.status} (want 3: the injected faults): ${r.stderr}`)
  const summary = JSON.parse(r.stdout)
  delete summary.seconds
  return { summary: JSON.stringify(summary, null, 1), findings: fs.readFileSync(findings, 'utf8') }
}

// same requires got to replay as want did.
function same(label, want, got, { findings = true } = {}) {
  if (got.summary !== want.summary) {
    const a = want.summary.split('\n')
    const b = got.summary.split('\n')
    const diff = a.map((l, k) => (l !== b[k] ? `  fairhold: ${l}\n  ${label}: ${b[k]}` : null)).filter((x) => x)
    fail(`${label}: summary differs from fairhold's writer's:\n${diff.slice(0, 20).join('\n')}`)
  }
  if (findings && got.findings !== want.findings) {
    const a = want.findings.split('\n')
    const b = got.findings.split('\n')
    const i = a.findIndex((l, k) => l !== b[k])
    fail(`${label}: findings file differs from fairhold's writer's at line ${i + 1}\n  fairhold: ${a[i]}\n  ${label}: ${b[i]}`)
  }
}

async function matrix(fairhold, work) {
  fs.mkdirSync(work, { recursive: true })
  for (const [game, faults] of Object.entries(GAMES)) {
    const base = path.join(work, game)
    const sim = ['simulate', '--game', game, '--rounds', String(ROUNDS), '--seed', '9', '--faults', faults]
    let r = run(fairhold, [...sim, '--row-group', '1000', '--out', path.join(base, 'fairhold')])
    if (r.status !== 0) fail(`${game}: simulate: ${r.stderr}`)
    r = run(fairhold, [...sim, '--format', 'jsonl', '--out', path.join(base, 'jsonl')])
    if (r.status !== 0) fail(`${game}: simulate --format jsonl: ${r.stderr}`)
    // Only the log's tables are compared: faults.jsonl (and a manifest,
    // which names each writer's own bytes) stay out of the datasets.
    for (const f of ['faults.jsonl', 'manifest.json']) {
      fs.rmSync(path.join(base, 'fairhold', f), { force: true })
      fs.rmSync(path.join(base, 'jsonl', f), { force: true })
    }
    const tmp = fs.mkdtempSync(path.join(base, 'tmp-'))
    const logs = fs.readdirSync(path.join(base, 'jsonl'), { recursive: true }).filter((f) => f.endsWith('.jsonl'))
    if (logs.length !== 1) fail(`${game}: simulate --format jsonl wrote ${logs.join(', ')}, want one log`)
    const write = await writers(load(path.join(base, 'jsonl', logs[0])), tmp)
    await write('duckdb', path.join(base, 'duckdb'))
    await write('hyparquet', path.join(base, 'hyparquet'))

    const want = replay(fairhold, path.join(base, 'fairhold'), `${game}/fairhold`)
    const parsed = JSON.parse(want.summary)
    if (parsed.rounds !== ROUNDS) fail(`${game}/fairhold: ${parsed.rounds} rounds replayed, want ${ROUNDS}`)
    if (parsed.findings?.INPUT_DAMAGED) fail(`${game}/fairhold: INPUT_DAMAGED: ${want.summary}`)
    for (const w of ['duckdb', 'hyparquet']) same(`${game}/${w}`, want, replay(fairhold, path.join(base, w), `${game}/${w}`))
    // The JSON Lines form names its own file and lines: the same findings otherwise.
    const jl = replay(fairhold, path.join(base, 'jsonl'), `${game}/jsonl`)
    same(`${game}/jsonl`, want, jl, { findings: false })
    const strip = (s) => s.split('\n').filter((l) => l).map((l) => { const o = JSON.parse(l); delete o.file; delete o.row; return JSON.stringify(o) }).join('\n')
    if (strip(jl.findings) !== strip(want.findings)) fail(`${game}/jsonl: findings differ from the Parquet forms' (file and row aside)`)
    const n = want.findings.split('\n').filter((l) => l).length
    console.log(`cross-writer: ${game}: ${ROUNDS} rounds, ${n} findings: fairhold, DuckDB and hyparquet-writer logs give the same summary and findings file; the JSON Lines form the same summary`)

    if (game !== 'double-holdem') continue
    for (const v of VARIANTS) {
      const dir = path.join(base, v.name)
      await write(v.writer, dir, v)
      if (v.refused) {
        const rr = run(fairhold, ['replay', '.', '--json'], dir)
        if (rr.status !== 1 || !rr.stderr.includes(v.refused)) fail(`${game}/${v.name}: replay exit ${rr.status}, want 1 and "${v.refused}": ${rr.stderr}`)
        continue
      }
      same(`${game}/${v.name}`, want, replay(fairhold, dir, `${game}/${v.name}`))
    }
    const ok = VARIANTS.filter((v) => !v.refused).map((v) => v.name)
    const refused = VARIANTS.filter((v) => v.refused).map((v) => v.name)
    console.log(`cross-writer: ${game}: the same summary and findings file from ${ok.join(', ')}; refused as damage: ${refused.join(', ')}`)
  }
}

// docsSQL checks that the COPY statement docs/log-format.md shows is
// copySQL's for the rounds table.
function docsSQL(docs) {
  const text = fs.readFileSync(docs, 'utf8')
  const m = /<!-- cross-writer: copy rounds -->\s*```sql\n([\s\S]*?)```/.exec(text)
  if (!m) fail(`${docs}: no COPY statement after <!-- cross-writer: copy rounds -->`)
  const want = copySQL('rounds', [...TABLES.rounds, ...LATER.rounds], '1.2', tablePath('day', 'rounds', 0)) + '\n'
  if (m[1] !== want) fail(`${docs}: the COPY statement differs from the one CI runs (node .ci/cross-writer.mjs sql prints it):\n${want}`)
}

const [cmd, ...args] = process.argv.slice(2)
if (cmd === 'matrix' && (args.length === 2 || args.length === 3)) {
  if (args[2]) docsSQL(args[2])
  await matrix(path.resolve(args[0]), path.resolve(args[1]))
} else if (cmd === 'sql' && args.length === 0) {
  process.stdout.write(copySQL('rounds', [...TABLES.rounds, ...LATER.rounds], '1.2', tablePath('day', 'rounds', 0)) + '\n')
} else if (cmd === 'write' && args.length >= 3) {
  const opts = {}
  let voidRow = -1
  for (let i = 3; i < args.length; i++) {
    if (args[i] === '--void-row') voidRow = Number(args[++i])
    else if (args[i] === '--foreign') opts.foreign = true
    else if (args[i] === '--duckdb-options') opts.duckdb = args[++i]
    else fail(`unknown option ${args[i]}`)
  }
  const out = path.resolve(args[2])
  const tmp = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR || '/tmp'), 'cross-writer-'))
  try {
    const write = await writers(load(args[1], voidRow), tmp)
    await write(args[0], out, opts)
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
} else {
  fail('usage: node cross-writer.mjs matrix FAIRHOLD WORKDIR [DOCS] | sql | write duckdb|hyparquet ROUNDS.jsonl OUTDIR [--void-row N] [--foreign] [--duckdb-options OPTS]')
}
