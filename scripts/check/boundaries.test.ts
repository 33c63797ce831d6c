/**
 * Proof that the import-boundary rules in biome.json bite: each deliberate violation, written into
 * a scratch copy of the tree layout with the real biome.json, fails `biome lint` with its message,
 * and the allowed neighbour passes. (The rules themselves live in biome.json "overrides".)
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const scratch = mkdtempSync(join(tmpdir(), 'boundaries-'))
copyFileSync(join(root, 'biome.json'), join(scratch, 'biome.json'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function lint(path: string, source: string) {
  const file = join(scratch, path)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, source)
  const run = spawnSync(join(root, 'node_modules/.bin/biome'), ['lint', '--vcs-enabled=false', '--colors=off', path], { cwd: scratch, encoding: 'utf8' })
  return { failed: run.status !== 0, output: `${run.stdout}${run.stderr}` }
}

describe('import boundaries (biome noRestrictedImports)', () => {
  it.each([
    ['providers ↛ relay', 'worker/providers/openai/probe.ts', "import { x } from '../../relay/relay-request'\nexport const y = x\n", 'Providers do not import the relay'],
    ['admin ↛ relay', 'worker/admin/probe.ts', "import { x } from '../relay/relay-request'\nexport const y = x\n", 'Admin does not import the relay'],
    ['tasks ↛ relay', 'worker/tasks/suno/probe.ts', "import { x } from '../../relay/relay-money'\nexport const y = x\n", 'Tasks do not import the relay'],
    ['console ↛ worker', 'console/src/features/logs/probe.ts', "import { x } from '../../../../worker/lib/time'\nexport const y = x\n", 'only through the shared contract'],
    ['production ↛ vitest', 'worker/relay/probe.ts', "import { vi } from 'vitest'\nexport const y = vi\n", 'never imports vitest'],
    ['production ↛ test helpers', 'worker/admin/probe.ts', "import { x } from '../test/client'\nexport const y = x\n", 'never imports test helpers'],
    ['contract ↛ test helpers', 'shared/contract/probe.ts', "import { x } from '../../worker/test/factories'\nexport const y = x\n", 'never imports test helpers'],
    ['durable objects ↛ relay', 'durable-objects/probe.ts', "import { x } from '../worker/relay/routing-table'\nexport const y = x\n", 'Durable Objects here import only lib'],
    ['durable objects ↛ tasks', 'durable-objects/probe.ts', "import { x } from '../worker/tasks/task-rows'\nexport const y = x\n", 'Durable Objects here import only lib'],
    ['telegram ↛ admin', 'worker/telegram/probe.ts', "import { x } from '../admin/users/users.service'\nexport const y = x\n", 'never import the admin API'],
    ['payments ↛ admin', 'worker/payments/probe.ts', "import { x } from '../admin/shared/limit-fields'\nexport const y = x\n", 'never import the admin API'],
    ['middleware ↛ admin', 'worker/middleware/probe.ts', "import { x } from '../admin/auth/setup-gate'\nexport const y = x\n", 'never import the admin API'],
    ['middleware ↛ 2FA routes', 'worker/middleware/probe.ts', "import { x } from '../admin/two-factor/policy'\nexport const y = x\n", 'never import the admin API'],
    ['cron ↛ admin', 'worker/cron/probe.ts', "import { x } from '../admin/logs/logs.service'\nexport const y = x\n", 'never import the admin API'],
    ['kernel ↛ relay', 'worker/billing/probe.ts', "import { x } from '../relay/relay-money'\nexport const y = x\n", 'never imports a surface'],
    ['mcp ↛ relay', 'worker/mcp/probe.ts', "import { x } from '../relay/relay-money'\nexport const y = x\n", 'does not import a sibling surface'],
    ['mcp ↛ admin', 'worker/mcp/probe.ts', "import { x } from '../admin/mcp/mcp.routes'\nexport const y = x\n", 'does not import a sibling surface'],
    ['wallet ↛ relay', 'worker/wallet/probe.ts', "import { x } from '../relay/relay-money'\nexport const y = x\n", 'never imports a surface'],
    ['kernel ↛ mcp', 'worker/channels/probe.ts', "import { x } from '../mcp/mcp-charge'\nexport const y = x\n", 'never imports a surface'],
    ['kernel ↛ middleware', 'worker/access/probe.ts', "import { x } from '../middleware/rate-limit'\nexport const y = x\n", 'never imports a surface'],
    ['lib ↛ data', 'worker/lib/probe.ts', "import { x } from '../db/errors'\nexport const y = x\n", 'worker/lib/ is the floor'],
    ['lib ↛ settings', 'worker/lib/probe.ts', "import { x } from '../settings/store'\nexport const y = x\n", 'worker/lib/ is the floor'],
    ['surfaces still ↛ test helpers', 'worker/payments/probe.ts', "import { x } from '../test/client'\nexport const y = x\n", 'never imports test helpers'],
    ['worker ↛ scripts', 'worker/admin/import/probe.ts', "import { x } from '../../../scripts/import/writer'\nexport const y = x\n", 'never imports scripts/'],
    ['providers ↛ scripts', 'worker/providers/openai/probe.ts', "import { x } from '../../../scripts/import/cli'\nexport const y = x\n", 'never imports scripts/'],
    ['shared ↛ scripts', 'shared/import/probe.ts', "import { x } from '../../scripts/import/source'\nexport const y = x\n", 'never imports scripts/'],
    [
      'console ↛ scripts',
      'console/src/features/import/probe.ts',
      "import { x } from '../../../../scripts/import/writer'\nexport const y = x\n",
      'The console never imports scripts/',
    ],
    ['console ↛ console.log', 'console/src/lib/probe.ts', "export const y = () => console.log('x')\n", 'noConsole'],
    ['worker ↛ console.error (the logger instead)', 'worker/relay/probe.ts', "export const y = () => console.error('x')\n", 'noConsole'],
    ['durable objects ↛ console.warn', 'durable-objects/probe.ts', "export const y = () => console.warn('x')\n", 'noConsole'],
  ])('%s fails lint', (_rule, path, source, message) => {
    const result = lint(path, source)
    expect(result.failed).toBe(true)
    expect(result.output).toContain(message)
  })

  it.each([
    [
      'admin imports the channel and access domains',
      'worker/admin/ok.ts',
      "import { x } from '../channels/pick'\nimport { z } from '../access/token-key'\nexport const y = [x, z]\n",
    ],
    [
      'tasks import the channel and access domains',
      'worker/tasks/ok.ts',
      "import { x } from '../channels/routing-table'\nimport { z } from '../access/token-auth'\nexport const y = [x, z]\n",
    ],
    ['the console imports the import library', 'console/src/features/import/ok.ts', "import { x } from '../../../../shared/import/wire-batches'\nexport const y = x\n"],
    ['worker tests import the script mocks', 'worker/telegram/ok.test.ts', "import { x } from '../../scripts/mock-telegram-api.mjs'\nexport const y = x\n"],
    ['the console imports the contract', 'console/src/lib/ok.ts', "import { x } from '@contract/sse'\nexport const y = x\n"],
    ['tests import vitest and helpers', 'worker/relay/ok.test.ts', "import { vi } from 'vitest'\nimport { x } from '../test/client'\nexport const y = [vi, x]\n"],
    ['telegram imports accounts and lib', 'worker/telegram/ok.ts', "import { x } from '../accounts/users'\nimport { z } from '../lib/paging'\nexport const y = [x, z]\n"],
    [
      'a durable object imports lib and the contract',
      'durable-objects/ok.ts',
      "import { x } from '../worker/lib/time'\nimport { z } from '../shared/contract/errors'\nexport const y = [x, z]\n",
    ],
    [
      'the kernel imports the floor and the contract',
      'worker/billing/ok.ts',
      "import { x } from '../lib/time'\nimport { z } from '../../shared/contract/payments'\nexport const y = [x, z]\n",
    ],
    ['the logger module writes to the console', 'worker/lib/logger.ts', "export const y = () => console.info('x')\n"],
    ['worker tests may print', 'worker/relay/ok.test.ts', "export const y = () => console.error('x')\n"],
  ])('%s', (_case, path, source) => {
    const result = lint(path, source)
    expect(result.output).not.toContain('noRestrictedImports')
    expect(result.failed).toBe(false)
  })
})
