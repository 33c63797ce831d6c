/**
 * The import page's work: the planner Web Worker reads the chosen one-api/one-hub file and builds
 * the plan with the CLI's mappers (shared/import/browser/planner-worker.ts); the gateway checks it
 * against its own rows (POST /api/import/check, the CLI's merge rule); applying starts an import,
 * sends the table writes in batches (the progress bar counts them) and finishes it.
 */
import { useMutation, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import i18n from '@/i18n'
import type { PlannerRequest, PlannerResponse } from '../../../../shared/import/browser/planner-protocol'
import PlannerWorker from '../../../../shared/import/browser/planner-worker.ts?worker'
import type { WireBatchResult, WireCheck, WireImportStarted, WirePlan } from '../../../../shared/import/wire'
import { insertDefaultPrices, wireBatches } from '../../../../shared/import/wire-batches'

export type { WireCheck, WirePlan } from '../../../../shared/import/wire'

export interface ImportOptions {
  from: 'auto' | 'one-api' | 'one-hub'
  withLogs: boolean
  merge: boolean
}

export type PlannedImport = WirePlan & { ms: number }

/** Reads the file in a Web Worker (a big database never freezes the page) and returns its plan. */
function planInWorker(file: File, options: ImportOptions): Promise<WirePlan & { ms: number }> {
  return file.arrayBuffer().then(
    (buffer) =>
      new Promise((resolve, reject) => {
        const worker = new PlannerWorker()
        worker.onmessage = (e: MessageEvent<PlannerResponse>) => {
          worker.terminate()
          if (e.data.ok) resolve(e.data)
          else reject(new Error(e.data.message))
        }
        worker.onerror = (e) => {
          worker.terminate()
          reject(new Error(e.message || i18n.t('common:errors.unknown')))
        }
        const request: PlannerRequest = { file: buffer, from: options.from === 'auto' ? undefined : options.from, withLogs: options.withLogs, merge: options.merge }
        worker.postMessage(request, [buffer])
      })
  )
}

/**
 * The source's root usually has id 1 — the id of the root signed in here, which no import may take.
 * Adopting it leaves that user row (password, balance, profile) and its opening-balance ledger row
 * out, so its keys, logs and codes, which keep their user id, become the signed-in root's.
 */
export function adoptSourceUser(plan: WirePlan, userId: number, note: string): WirePlan {
  let ledgerRows = 0
  const writes = plan.writes.map((w) => {
    if (w.table === 'users') return { ...w, rows: w.rows.filter((r) => Number(r.id) !== userId) }
    if (w.table === 'logs' && w.onConflict !== 'ignore' && 'match' in w.onConflict) {
      const rows = w.rows.filter((r) => Number(r.user_id) !== userId)
      ledgerRows += w.rows.length - rows.length
      return { ...w, rows }
    }
    return w
  })
  const tables = plan.report.tables.map((t) => {
    if (t.table === 'users') return { ...t, written: t.written - 1, skipped: t.skipped + 1 }
    if (t.table === 'balance ledger rows') return { ...t, written: t.written - ledgerRows }
    return t
  })
  return {
    ...plan,
    writes,
    identities: { ...plan.identities, users: plan.identities.users.filter((u) => u.id !== userId) },
    report: { ...plan.report, tables, notes: [note, ...plan.report.notes] },
  }
}

/** The source user with this id, when it is a root (role 100) — the one that can be adopted. */
export const sourceRootWithId = (plan: WirePlan, userId: number) => plan.writes.find((w) => w.table === 'users')?.rows.find((r) => Number(r.id) === userId && Number(r.role) >= 100)

/** The dry run: the file is read and mapped here; nothing is sent or written. */
export function useDryRun() {
  return useMutation({ mutationFn: ({ file, options }: { file: File; options: ImportOptions }): Promise<PlannedImport> => planInWorker(file, options) })
}

/** Whether the gateway accepts this plan (the CLI's merge rule); asked again when the plan or merge changes. */
export function useTargetCheck(plan: WirePlan | null, planKey: string, merge: boolean) {
  return useQuery({
    queryKey: ['import', 'check', planKey, merge],
    queryFn: () => api.post<WireCheck>('/api/import/check', { merge, identities: plan!.identities }),
    enabled: plan !== null,
    staleTime: 0,
    gcTime: 0,
  })
}

export interface ApplyResult {
  applied: number
  batches: number
  problems: string[]
  ms: number
}

/** Applies a planned import batch by batch; `onProgress(done, total)` after each batch. */
export function useApplyImport(onProgress: (done: number, total: number) => void) {
  return useMutation({
    mutationFn: async ({ plan, merge }: { plan: WirePlan; merge: boolean }): Promise<ApplyResult> => {
      const started = performance.now()
      const { importId, hasPrices } = await api.post<WireImportStarted>('/api/import/start', { merge, identities: plan.identities })
      const batches = wireBatches(hasPrices ? plan.writes : insertDefaultPrices(plan.writes, plan.defaultPrices))
      const result: ApplyResult = { applied: 0, batches: batches.length, problems: [], ms: 0 }
      onProgress(0, batches.length)
      for (const [i, writes] of batches.entries()) {
        const done = await api.post<WireBatchResult>('/api/import/batch', { import_id: importId, writes })
        result.applied += done.applied
        result.problems.push(...done.problems)
        onProgress(i + 1, batches.length)
      }
      await api.post('/api/import/finish', { import_id: importId })
      result.ms = Math.round(performance.now() - started)
      return result
    },
  })
}
