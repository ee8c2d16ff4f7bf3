// Runs the SQL of docs/log-format.md ("Querying logs and findings with
// SQL") through DuckDB over a Parquet findings file, and checks each
// result against the JSON Lines form of the same findings, summed here
// independently. The queries are the doc's own blocks, those after a
// `<!-- sql-check: NAME -->` line, so the doc and CI cannot drift.
//
// usage: node findings-sql.mjs DOC FINDINGS.parquet FINDINGS.jsonl ROUNDS_GLOB
import { readFileSync } from 'node:fs'
import { DuckDBInstance } from '@duckdb/node-api'

const [doc, findingsParquet, findingsJsonl, roundsGlob] = process.argv.slice(2)
const fail = (msg) => { console.error(`findings-sql: ${msg}`); process.exit(1) }

// The doc's paths, replaced by the files of this run.
const FINDINGS = "'findings.parquet'"
const ROUNDS = "'DIR/rounds/*.parquet'"

// The marked SQL blocks of the doc, by name.
const blocks = {}
const marker = /<!-- sql-check: ([a-z-]+) -->\n```sql\n([\s\S]*?)\n```/g
for (const m of readFileSync(doc, 'utf8').matchAll(marker)) blocks[m[1]] = m[2]
const names = ['underpayments', 'operator-summary', 'findings-by-table']
for (const n of names) if (!blocks[n]) fail(`${doc}: no SQL block marked sql-check: ${n}`)
const sqlOf = (name) => {
  const sql = blocks[name]
  if (!sql.includes(FINDINGS)) fail(`${name}: the query does not read ${FINDINGS}`)
  return sql.replaceAll(FINDINGS, `'${findingsParquet}'`).replaceAll(ROUNDS, `'${roundsGlob}'`)
}

// The findings as the JSON Lines file gives them. The amounts are read
// from the text as BigInt, so that int64 values are exact.
const amount = (line, key) => {
  const m = line.match(new RegExp(`"${key}":(-?\\d+)`))
  return m ? BigInt(m[1]) : null
}
const findings = readFileSync(findingsJsonl, 'utf8').split('\n').filter((l) => l !== '').map((line) => {
  const f = JSON.parse(line)
  return {
    code: f.code, severity: f.severity, round_id: f.round_id,
    player_id: f.player_id ?? null, currency: f.currency ?? null,
    expected: amount(line, 'expected_amount'), actual: amount(line, 'actual_amount'), difference: amount(line, 'difference'),
  }
})
if (findings.length === 0) fail(`${findingsJsonl}: no findings`)
for (const f of findings) {
  if (f.difference !== null && f.difference !== f.actual - f.expected) fail(`${f.round_id} ${f.code}: difference is not actual - expected`)
}

// Values from DuckDB (bigint for BIGINT and HUGEINT sums) as text, nulls
// as null, for comparison with what is summed here.
const text = (v) => (v === null || v === undefined ? null : typeof v === 'bigint' ? v.toString() : String(v))
const instance = await DuckDBInstance.create(':memory:')
const conn = await instance.connect()
async function query(name) {
  const reader = await conn.runAndReadAll(sqlOf(name))
  return reader.getRowObjectsJS()
}
const same = (what, got, want) => {
  const g = JSON.stringify(got)
  const w = JSON.stringify(want)
  if (g !== w) fail(`${what}:\n  duckdb:     ${g}\n  json lines: ${w}`)
}
// DuckDB's default order: ascending with nulls last; VARCHAR by bytes.
const cmp = (a, b) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1)
const cmpBig = (a, b) => (a === b ? 0 : a < b ? -1 : 1)
const sum = (xs) => xs.reduce((s, x) => s + x, 0n)
const groupBy = (xs, key) => {
  const m = new Map()
  for (const x of xs) {
    const k = JSON.stringify(key(x))
    if (!m.has(k)) m.set(k, [])
    m.get(k).push(x)
  }
  return [...m.entries()].map(([k, v]) => [JSON.parse(k), v])
}

// 1. Underpayments per player.
{
  const short = findings.filter((f) => f.difference !== null && f.difference < 0n && f.player_id !== null)
  if (short.length === 0) fail('the log has no underpayment: the check would prove nothing')
  const want = groupBy(short, (f) => [f.player_id, f.currency])
    .map(([[player, currency], fs]) => ({ player_id: player, currency, findings: BigInt(fs.length), underpaid: -sum(fs.map((f) => f.difference)) }))
    .sort((a, b) => cmp(a.currency, b.currency) || cmpBig(b.underpaid, a.underpaid) || cmp(a.player_id, b.player_id))
    .map((r) => ({ player_id: r.player_id, currency: r.currency, findings: text(r.findings), underpaid: text(r.underpaid) }))
  const got = (await query('underpayments')).map((r) => ({
    player_id: text(r.player_id), currency: text(r.currency), findings: text(r.findings), underpaid: text(r.underpaid),
  }))
  same('underpayments per player', got, want)
  console.log(`underpayments: ${got.length} players underpaid, ${sum(short.map((f) => -f.difference))} minor units in ${short.length} findings`)
}

// 2. One operator's summary, with the totals per currency.
{
  const row = (code, severity, currency, fs) => {
    const d = fs.map((f) => f.difference).filter((x) => x !== null)
    const neg = d.filter((x) => x < 0n)
    const pos = d.filter((x) => x > 0n)
    return {
      code, severity, currency,
      findings: text(BigInt(fs.length)),
      with_amounts: text(BigInt(d.length)),
      below_expected: neg.length ? text(-sum(neg)) : null,
      above_expected: pos.length ? text(sum(pos)) : null,
      net_difference: d.length ? text(sum(d)) : null,
    }
  }
  const want = [
    ...groupBy(findings, (f) => [f.code, f.severity, f.currency]).map(([[c, s, cur], fs]) => row(c, s, cur, fs)),
    ...groupBy(findings, (f) => [f.currency]).map(([[cur], fs]) => row(null, null, cur, fs)),
  ].sort((a, b) => cmp(a.code, b.code) || cmp(a.severity, b.severity) || cmp(a.currency, b.currency))
  const got = (await query('operator-summary')).map((r) => ({
    code: text(r.code), severity: text(r.severity), currency: text(r.currency),
    findings: text(r.findings), with_amounts: text(r.with_amounts),
    below_expected: text(r.below_expected), above_expected: text(r.above_expected), net_difference: text(r.net_difference),
  }))
  same('operator summary', got, want)
  for (const code of ['ANTE_PAYOUT_WRONG', 'BALANCE_MISMATCH']) {
    const r = got.find((x) => x.code === code)
    if (!r || r.with_amounts !== r.findings) fail(`operator summary: ${code} findings without amounts: ${JSON.stringify(r)}`)
  }
  console.log(`operator summary: ${got.length} rows, ${findings.length} findings`)
}

// 3. The money findings joined with the rounds table: every money finding
// meets its round once, and the sums per currency are the findings'.
{
  const money = findings.filter((f) => f.difference !== null)
  const got = await query('findings-by-table')
  if (got.length === 0) fail('findings by table: no rows')
  for (const r of got) {
    if (!r.game || !r.table_id || r.first_at === null || r.last_at === null || r.first_at > r.last_at) {
      fail(`findings by table: a row without its rounds' game, table or times: ${JSON.stringify(r, (k, v) => text(v))}`)
    }
  }
  const perCurrency = (rows, count, diff) =>
    groupBy(rows, (r) => [text(r.currency)]).map(([[cur], rs]) => ({ currency: cur, findings: text(sum(rs.map(count))), net: text(sum(rs.map(diff))) }))
      .sort((a, b) => cmp(a.currency, b.currency))
  same('findings by table, per currency',
    perCurrency(got, (r) => BigInt(r.findings), (r) => BigInt(r.net_difference)),
    perCurrency(money, () => 1n, (f) => f.difference))
  console.log(`findings by table: ${got.length} tables, ${money.length} money findings joined with their rounds`)
}

conn.closeSync()
instance.closeSync()
console.log('findings-sql: the SQL of the doc gives what the JSON Lines findings say')
