/**
 * Channel speed tests: one tiny chat request through the channel's adapter (never billed), timed,
 * with the result saved on the channel (response_time ms, test_time). Testing all channels (the
 * button and the cron job) also applies the monitoring settings: auto-disable on credential errors
 * or when slower than ChannelDisableThreshold (a pool's failing key alone), auto-enable of
 * auto/test-disabled channels that pass; every change goes to the status history.
 */
import { eq, inArray } from 'drizzle-orm'
import { createDb } from '../db/client'
import { channels, type Channel } from '../db/schema'
import { channelType } from '../providers/registry'
import { MalformedUpstreamError } from '../lib/upstream-error'
import { buildRoutingTable } from './routing-table'
import { decideFailure } from './retry-policy'
import { disableKey } from './status'
import { channelHealthOf } from './health'
import type { PoolKey } from './types'
import { mapModel } from './pick'
import { callUpstream } from './upstream'
import { channelNetwork } from './network'
import { nowSeconds } from '../lib/time'
import { getSettings } from '../settings/store'
import { CHANNEL_STATUS } from '../../shared/contract/enums'
import type { BackgroundCtx } from '../cache/versioned'

export interface TestResult {
  success: boolean
  message: string
  /** Seconds taken. */
  time: number
  /** False when the test never reached the supplier (no test model, not a chat model): the admin's input error. */
  reached: boolean
  disableReason?: string
  /** The pool key the test used (pool channels). */
  keyHash?: string
}

const TEST_TIMEOUT_MS = 60_000
const NOT_CHAT = /(embedding|embed|tts|whisper|dall-e|image|rerank|moderation|^mj_|^chirp|audio)/i

/** `key`: test this one key of a pool (the cron retest of a disabled key); otherwise a pool's first key. */
export async function testChannel(env: Env, channel: Channel, requestedModel?: string, key?: PoolKey): Promise<TestResult> {
  const model = (requestedModel || channel.testModel || '').trim()
  if (!model) return { success: false, message: 'Set a test model on this channel first', time: 0, reached: false }
  if (NOT_CHAT.test(model)) return { success: false, message: `Speed tests apply to chat models only (${model})`, time: 0, reached: false }
  const type = channelType(channel.type)
  if (!type?.adapter.supports('chat')) return { success: false, message: 'Channel type error', time: 0, reached: false }
  const table = buildRoutingTable([{ ...snake(channel) }]).channels[channel.id]!
  const used = key ?? (table.keyMode === 'pool' ? table.keys?.[0] : undefined)
  const routed = used ? { ...table, key: used.key } : table
  const upstream = mapModel(routed, model).upstream
  const started = Date.now()
  const result = await callUpstream(
    type.adapter,
    { op: 'chat', model: upstream, json: { model: upstream, messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 }, stream: false, includeUsage: false },
    routed,
    TEST_TIMEOUT_MS,
    channelNetwork(env, routed)
  )
  let outcome: TestResult
  if (result.ok) {
    try {
      await type.adapter.parseResponse({ op: 'chat', model: upstream, stream: false, includeUsage: false }, result.response)
      outcome = { success: true, message: 'ok', time: (Date.now() - started) / 1000, reached: true }
    } catch (err) {
      const message = err instanceof MalformedUpstreamError ? err.message : String(err)
      outcome = { success: false, message, time: (Date.now() - started) / 1000, reached: true }
    }
  } else {
    const settings = await getSettings(env)
    const keywords = settings
      .str('DisableChannelKeywords')
      .split('\n')
      .map((k) => k.trim())
      .filter(Boolean)
    outcome = {
      success: false,
      message: `${result.status > 0 ? result.status : 'error'}: ${result.error.message}`,
      time: (Date.now() - started) / 1000,
      reached: true,
      disableReason: decideFailure({ status: result.status, error: result.error }, keywords).disableReason,
    }
  }
  await createDb(env.DB)
    .update(channels)
    .set({ responseTime: Math.round(outcome.time * 1000), testTime: nowSeconds() })
    .where(eq(channels.id, channel.id))
  return used ? { ...outcome, keyHash: used.hash } : outcome
}

/** Column names as the routing table reads them from raw rows. */
function snake(ch: Channel): Record<string, unknown> {
  return {
    id: ch.id,
    type: ch.type,
    name: ch.name,
    key: ch.key,
    base_url: ch.baseUrl,
    other: ch.other,
    priority: ch.priority,
    weight: ch.weight,
    only_chat: ch.onlyChat,
    auto_ban: ch.autoBan,
    model_mapping: ch.modelMapping,
    model_headers: ch.modelHeaders,
    custom_parameter: ch.customParameter,
    models: ch.models,
    group: ch.group,
    key_mode: ch.keyMode,
    proxy: ch.proxy,
  }
}

/** Apply the monitoring settings to one test outcome; returns what changed. */
export async function applyMonitoring(env: Env, channel: Channel, r: TestResult, bg?: BackgroundCtx): Promise<'disabled' | 'enabled' | 'unchanged'> {
  const settings = await getSettings(env)
  const health = channelHealthOf(env, channel.id)
  if (channel.status === CHANNEL_STATUS.ENABLED && channel.autoBan && settings.bool('AutomaticDisableChannelEnabled')) {
    if (!r.success && r.disableReason && r.keyHash) {
      // A pool's key failed: that key goes alone (the channel follows when no key is left).
      return (await disableKey(env, { channelId: channel.id, keyHash: r.keyHash, reason: `test failed: ${r.disableReason}` }, bg)).keyDisabled ? 'disabled' : 'unchanged'
    }
    if (!r.success && r.disableReason) {
      const reason = `test failed: ${r.disableReason}`
      return (await health.disable({ channelId: channel.id, reason })) ? 'disabled' : 'unchanged'
    }
    const threshold = settings.num('ChannelDisableThreshold')
    if (r.success && threshold > 0 && r.time > threshold) {
      const reason = `response time ${r.time.toFixed(2)} s exceeds the threshold of ${threshold} s`
      return (await health.disable({ channelId: channel.id, reason, status: CHANNEL_STATUS.TEST_DISABLED })) ? 'disabled' : 'unchanged'
    }
  }
  const autoOff = channel.status === CHANNEL_STATUS.AUTO_DISABLED || channel.status === CHANNEL_STATUS.TEST_DISABLED
  if (autoOff && r.success && settings.bool('AutomaticEnableChannelEnabled')) {
    const threshold = settings.num('ChannelDisableThreshold')
    if ((threshold <= 0 || r.time <= threshold) && (await health.enable({ channelId: channel.id, reason: `test passed in ${r.time.toFixed(2)} s` }))) return 'enabled'
  }
  return 'unchanged'
}

/** Test every channel that is enabled or was disabled automatically, five at a time. */
export async function testAllChannels(env: Env): Promise<{ tested: number; disabled: number; enabled: number }> {
  const rows = await createDb(env.DB)
    .select()
    .from(channels)
    .where(inArray(channels.status, [CHANNEL_STATUS.ENABLED, CHANNEL_STATUS.AUTO_DISABLED, CHANNEL_STATUS.TEST_DISABLED]))
  const summary = { tested: 0, disabled: 0, enabled: 0 }
  const queue = rows.filter((r) => r.testModel)
  const worker = async () => {
    for (let ch = queue.shift(); ch; ch = queue.shift()) {
      const result = await testChannel(env, ch)
      summary.tested++
      const change = await applyMonitoring(env, ch, result)
      if (change === 'disabled') summary.disabled++
      if (change === 'enabled') summary.enabled++
    }
  }
  await Promise.all(Array.from({ length: 5 }, worker))
  return summary
}
