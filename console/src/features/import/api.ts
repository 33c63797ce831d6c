/**
 * The import page's work: the planner Web Worker reads the chosen one-api/one-hub file and builds
 * the plan with the CLI's mappers (scripts/import/browser/planner-worker.ts); the gateway checks it
 * against its own rows (POST /api/import/check, the CLI's merge rule); applying starts an import,
 * sends the table writes in batches (the progress bar counts them) and finishes it.
 */
import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { PlannerRequest, PlannerResponse } from '../../../../scripts/import/browser/planner-protocol'
import PlannerWorker from '../../../../scripts/import/browser/planner-worker.ts?worker'
import type { WireBatchResult, WireCheck, WirePlan } from '../../../../scripts/import/wire'
import { insertDefaultPrices, wireBatches } from '../../../../scripts/import/wire-batches'

export type { WireCheck, WirePlan, WireReport } from '../../../../scripts/import/wire'

export interface ImportOptions {
  from: 'auto' | 'one-api' | 'one-hub'
  withLogs: boolean
  merge: boolean
}

export type PlannedImport = WirePlan & { ms: number; check: WireCheck }

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
          reject(new Error(e.message || 'The file could not be read'))
        }
        const request: PlannerRequest = { file: buffer, from: options.from === 'auto' ? undefined : options.from, withLogs: options.withLogs, merge: options.merge }
        worker.postMessage(request, [buffer])
      })
  )
}

export const checkTarget = (plan: WirePlan, merge: boolean) => api.post<WireCheck>('/api/import/check', { merge, identities: plan.identities })

/** The dry run: nothing is written. */
export function useDryRun() {
  return useMutation({
    mutationFn: async ({ file, options }: { file: File; options: ImportOptions }): Promise<PlannedImport> => {
      const plan = await planInWorker(file, options)
      return { ...plan, check: await checkTarget(plan, options.merge) }
    },
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
      const { importId, hasPrices } = await api.post<{ importId: string; hasPrices: boolean }>('/api/import/start', { merge, identities: plan.identities })
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
