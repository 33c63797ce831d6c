/**
 * Step-up in the console: when the server refuses a sensitive action with `step_up_required`,
 * api-client asks the prompt registered here (the global StepUpDialog) and retries the call once
 * the password is confirmed. Several refusals at once share one dialog. `ensureStepUp` is for plain
 * links (the log CSV download), which cannot be retried: it asks first when the session needs it.
 */
import type { StepUpRequiredData } from '@contract/sessions'
import { apiCredentials, apiUrl } from './api-origin'

export const STEP_UP_PATH = '/api/user/step_up'

type Prompt = (data: StepUpRequiredData) => Promise<boolean>

let prompt: Prompt | undefined
let pending: Promise<boolean> | undefined

export function setStepUpPrompt(next: Prompt | undefined): void {
  prompt = next
}

/** Resolves true once the user confirmed (the call may be retried), false when they cancelled. */
export function askStepUp(data: StepUpRequiredData): Promise<boolean> {
  if (!prompt) return Promise.resolve(false)
  pending ??= prompt(data).finally(() => {
    pending = undefined
  })
  return pending
}

/** True when the session may run a step-up action now (asking first when it may not). */
export async function ensureStepUp(): Promise<boolean> {
  const res = await fetch(apiUrl(STEP_UP_PATH), { credentials: apiCredentials, headers: { Accept: 'application/json' } })
  const body = (await res.json().catch(() => null)) as { data?: { fresh?: boolean; required?: StepUpRequiredData } } | null
  if (body?.data?.fresh) return true
  return body?.data?.required ? askStepUp(body.data.required) : false
}
