/** Wire shapes of the root system page: the report (GET /api/system/) and the OTLP test (POST /api/system/otlp-test). */
import type { AlertStatus } from './notify'

/** One reachability probe: whether it answered, how long it took, and its error when it failed. */
export interface Probe {
  ok: boolean
  ms: number
  error?: string
}

/** One scheduled job: its cron, next run and last report (null before the first run). */
export interface CronJob {
  job: string
  cron: string
  next_run: number | null
  last_run: number | null
  duration_ms: number | null
  result: 'ok' | 'error' | null
  error: string | null
}

/** A part of the report that failed on the server comes back as its error. */
export type Part<T> = T | { error: string }

export interface SystemReport {
  version: { version: string; console_build: string }
  now: number
  cron: Part<CronJob[]>
  health: Part<{
    channels: { enabled: number; frozen: number; disabled: number }
    pool_keys_disabled: number
    dead_letters: number
    /** Unix seconds of the oldest parked row (null: none). */
    dead_letters_oldest_at: number | null
    /** Lease reports this isolate sent or queued that no wallet confirmed yet (oldest_at: Unix seconds). */
    pending_reports: { requests: number; quota: number; oldest_at: number | null }
  }>
  database: Part<{ size_bytes: number | null; measure: 'bytes' | 'rows'; tables: { name: string; value: number }[] }>
  reachability: { kv: Probe; durable_object: Probe; d1: Probe }
  telemetry: {
    metrics: { token_configured: boolean; analytics_engine: boolean }
    otlp: {
      endpoint: string
      headers_configured: boolean
      sample_rate: number
      record_content: boolean
      /** This isolate's export counters since it started. */
      isolate: { exported: number; dropped: number; failed: number; lastExportAt: number; lastError: string; queued: number }
    }
  }
  alerts: Part<AlertStatus>
  environment: { ok: boolean; error: string | null; variables: Record<string, string>; bindings: Record<string, boolean> }
}

/** What the collector answered to one test span (status 0: never reached). */
export interface OtlpTestResult {
  ok: boolean
  status: number
  ms: number
  error: string
  trace_id: string
}
