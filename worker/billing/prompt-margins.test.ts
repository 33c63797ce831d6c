/** The prompt estimate's per-family margins: built-in table, root's override, and the hold that uses them. */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { setOptions } from '../test/factories'
import { getSettings } from '../settings/store'
import { heldPromptTokens, promptMargin } from './prompt-margins'

describe('prompt margins', () => {
  it('scales Claude and Gemini estimates up, leaves OpenAI models as estimated, and takes root’s table first', async () => {
    let settings = await getSettings(env)
    expect(promptMargin(settings, 'claude-sonnet-4-5')).toBe(1.3)
    expect(promptMargin(settings, 'gemini-2.5-pro')).toBe(1.3)
    expect(promptMargin(settings, 'gpt-4o')).toBe(1)
    expect(heldPromptTokens(settings, 'claude-sonnet-4-5', 100)).toBe(130)
    await setOptions({ PromptEstimateMargins: JSON.stringify({ 'gpt-4o*': 1.5, 'claude-sonnet*': 2 }) })
    settings = await getSettings(env)
    expect(promptMargin(settings, 'gpt-4o-mini')).toBe(1.5)
    expect(promptMargin(settings, 'claude-sonnet-4-5')).toBe(2)
    expect(promptMargin(settings, 'claude-opus-4-1')).toBe(1.3)
  })

  it('refuses a factor below 1 (it would hold less than the estimate)', async () => {
    await expect(setOptions({ PromptEstimateMargins: JSON.stringify({ 'gpt-4o': 0.5 }) })).rejects.toThrow()
  })
})
