/** When an import may be written into a gateway that already holds data. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ONE_API_KEY, oneApiTables, writeSqlite } from './fixtures'
import { buildPlan } from '../../shared/import/mapping'
import type { ImportPlan } from '../../shared/import/plan'
import { openSource } from './source'
import { targetConflicts, type TargetState } from '../../shared/import/target-check'

const dir = mkdtempSync(path.join(tmpdir(), 'import-target-'))
let plan: ImportPlan
beforeAll(async () => {
  const file = path.join(dir, 'one-api.db')
  writeSqlite(file, oneApiTables())
  const db = await openSource(file)
  plan = buildPlan(db)
  db.close()
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const empty: TargetState = { users: [], tokens: [], channels: [], redemptions: [], prices: 0 }

describe('the target gateway', () => {
  it('takes an import when fresh, and a re-run of the same import', () => {
    expect(targetConflicts(plan, empty, false)).toEqual([])
    const afterFirstRun: TargetState = {
      ...empty,
      users: [
        [1, 'root', 1],
        [2, 'alice', 1],
        [3, 'deleted_3f2a', 1],
      ],
      channels: [[1, 'sk-mock-upstream']],
    }
    expect(targetConflicts(plan, afterFirstRun, false)).toEqual([])
  })

  it('asks for --merge when it has users of its own (e.g. set up before the import)', () => {
    const [problem] = targetConflicts(plan, { ...empty, users: [[1, 'admin', 0]] }, false)
    expect(problem).toMatch(/already has 1 user\(s\) of its own \(e\.g\. admin, id 1\).*--merge/)
  })

  it('with --merge, refuses rows that would take the id or username of its own rows', () => {
    expect(targetConflicts(plan, { ...empty, users: [[50, 'someone', 0]] }, true)).toEqual([])
    expect(
      targetConflicts(
        plan,
        {
          ...empty,
          users: [
            [1, 'admin', 0],
            [60, 'alice', 0],
          ],
          tokens: [[1, 'N'.repeat(48)]],
          channels: [[2, 'other-key']],
          redemptions: [[1, 'other-hash']],
        },
        true
      )
    ).toEqual([
      "users id 1 (root) would replace the gateway's own user admin",
      "users id 2: the username alice is taken by the gateway's user id 60",
      'tokens id 1 would replace a different token of the gateway',
      'channels id 2 would replace a different channel of the gateway',
      'redemptions id 1 would replace a different redemption of the gateway',
    ])
    // An imported token already present with the same key is a re-run, not a conflict.
    expect(targetConflicts(plan, { ...empty, users: [[50, 'someone', 0]], tokens: [[1, ONE_API_KEY]] }, true)).toEqual([])
  })
})
