/**
 * Messages between the console's import page and its planner worker (planner-worker.ts). No
 * imports beyond wire.ts, so the console type-checks the same file.
 */
import type { WirePlan } from '../wire'

export interface PlannerRequest {
  file: ArrayBuffer
  from?: 'one-api' | 'one-hub'
  withLogs: boolean
  merge: boolean
}

export type PlannerResponse = ({ ok: true; ms: number } & WirePlan) | { ok: false; message: string }
