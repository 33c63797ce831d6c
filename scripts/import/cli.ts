/**
 * `npm run import -- <file or URL> [--from one-api|one-hub] [--dry-run] [--with-logs] [--merge]
 * [--remote] [--persist-to DIR] [--sql-out FILE]`: reads a one-api / one-hub database, prints the
 * report (rows per table, problems, what has no equivalent) and, unless --dry-run, writes it to the
 * local D1 (or the Cloudflare one with --remote). Exits 1 on failure, 2 on bad arguments.
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { defaultPricesWrite } from '../../shared/import/map-settings'
import { buildPlan } from '../../shared/import/mapping'
import type { ImportPlan } from '../../shared/import/plan'
import { openSource } from './source'
import { TARGET_STATE_SQL, parseTargetState, targetConflicts } from '../../shared/import/target-check'
import { planStatements } from '../../shared/import/statements'
import { applyStatements, queryTarget, type Target } from './writer'

const USAGE = `Usage: npm run import -- <one-api/one-hub SQLite file, mysqldump or pg_dump --inserts file, or http(s) URL>
  --from one-api|one-hub   source kind (detected from the tables when omitted)
  --dry-run                print what would be written; write nothing
  --with-logs              also import the request logs (history)
  --merge                  allow importing into a gateway that has users of its own (ids must not overlap)
  --remote                 write to the Cloudflare D1 (default: the local one of npm start)
  --persist-to DIR         local state directory (default .wrangler/state)
  --sql-out FILE           also save the generated SQL`

export function formatReport(plan: ImportPlan): string {
  const lines = [`Source: ${plan.source}`, '', 'table                   read  written  skipped']
  for (const [table, r] of Object.entries(plan.report)) {
    lines.push(`${table.padEnd(22)} ${String(r.read).padStart(5)} ${String(r.written).padStart(8)} ${String(r.skipped).padStart(8)}`)
  }
  if (plan.problems.length) lines.push('', `Problems (${plan.problems.length}):`, ...plan.problems.map((p) => `  - ${p}`))
  if (plan.notes.length) lines.push('', 'Notes:', ...plan.notes.map((n) => `  - ${n}`))
  return lines.join('\n')
}

/** Checks the target (target-check.ts) and seeds the built-in prices first when it has none. */
function prepareTarget(target: Target, plan: ImportPlan, merge: boolean) {
  const state = parseTargetState(queryTarget(target, TARGET_STATE_SQL)[0])
  const conflicts = targetConflicts(plan, state, merge)
  if (conflicts.length) throw new Error(`Nothing was written:\n  - ${conflicts.slice(0, 20).join('\n  - ')}`)
  if (!state.prices) {
    const at = plan.writes.findIndex((w) => w.table === 'prices')
    plan.writes.splice(at < 0 ? plan.writes.length : at, 0, defaultPricesWrite())
  }
}

function progressBar(done: number, total: number) {
  const width = 30
  const filled = Math.round((done / total) * width)
  process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} batches`)
  if (done === total) process.stderr.write('\n')
}

export async function main(argv: string[]): Promise<number> {
  let args
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        from: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        'with-logs': { type: 'boolean', default: false },
        merge: { type: 'boolean', default: false },
        remote: { type: 'boolean', default: false },
        'persist-to': { type: 'string' },
        'sql-out': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`)
    return 2
  }
  const { values, positionals } = args
  if (values.help || positionals.length !== 1 || (values.from && values.from !== 'one-api' && values.from !== 'one-hub')) {
    console.error(USAGE)
    return values.help ? 0 : 2
  }
  const started = Date.now()
  const db = await openSource(positionals[0]!)
  let plan: ImportPlan
  try {
    plan = buildPlan(db, { from: values.from as 'one-api' | 'one-hub' | undefined, withLogs: values['with-logs'] })
  } finally {
    db.close()
  }
  if (values.merge && values['with-logs'])
    plan.notes.push('--merge with --with-logs: a history row whose id the gateway already uses is kept as it is (the imported one is skipped)')
  const statements = planStatements(plan)
  console.log(formatReport(plan))
  if (values['sql-out']) writeFileSync(values['sql-out'], statements.join(';\n') + ';\n')
  if (values['dry-run']) {
    console.log(`\nDry run: ${statements.length} statements would be written; nothing was written.`)
    return 0
  }
  const target: Target = { remote: values.remote, persistTo: values['persist-to'], cwd: path.resolve(import.meta.dirname, '../..') }
  prepareTarget(target, plan, values.merge)
  const toWrite = planStatements(plan)
  applyStatements(target, toWrite, progressBar)
  console.log(`\nImported into the ${values.remote ? 'remote' : 'local'} D1 in ${((Date.now() - started) / 1000).toFixed(1)} s (${toWrite.length} statements).`)
  console.log('Restart a running gateway (or wait for its caches to expire) so it reads the imported channels, prices and settings.')
  return 0
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: Error) => {
      console.error(`Import failed: ${e.message}`)
      process.exit(1)
    }
  )
}
