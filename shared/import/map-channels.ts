/**
 * Channels and their routing index. Type ids are remapped (channel-types.ts), one-api's `config`
 * JSON is reshaped into the key/other forms this gateway reads (AWS `Region|AK|SK`, Vertex
 * `Region|ProjectID` + service-account key, Azure API version), and `abilities` is rebuilt from the
 * channels (one row per group × model) rather than copied, as the gateway does on every channel write.
 * Plugin parameters are carried as compact JSON, noting the ones the type does not apply here.
 */
import { mapChannelType } from './channel-types'
import { ImportPlan, bool, int, num, parseJson, softDeleted, splitList, str, type Value } from './plan'
import type { Row } from './sql-dump'
import { clearAbilitiesSql } from './statements'
import { parsePlugin, unusedPlugins } from '../contract/channel-plugins'

interface OneApiConfig {
  region?: string
  ak?: string
  sk?: string
  api_version?: string
  vertex_ai_project_id?: string
  vertex_ai_adc?: string
  plugin?: string
}

/** The key and `other` in this gateway's form, from one-api's config JSON where it held them. */
function reshape(plan: ImportPlan, r: Row, type: number, sourceType: number): { key: string; other: string } {
  let key = str(r.key)
  let other = str(r.other)
  if (plan.source !== 'one-api') return { key, other }
  const config = parseJson<OneApiConfig>(str(r.config)) ?? {}
  if (type === 32 && sourceType === 33 && config.ak && config.sk) key = `${config.region || 'us-east-1'}|${config.ak}|${config.sk}`
  if (type === 42 && config.vertex_ai_adc) {
    key = config.vertex_ai_adc
    other = `${config.region || 'us-central1'}|${config.vertex_ai_project_id ?? ''}`
  }
  if (type === 3 && config.api_version) other = config.api_version
  if (str(r.system_prompt)) plan.notes.push(`channels id ${r.id}: one-api's per-channel system prompt is not supported and was dropped`)
  return { key, other }
}

/** one-hub channel settings this gateway has no equivalent for, with their "unset" values. */
const DROPPED_SETTINGS: [string, (v: string) => boolean][] = [
  ['disabled_stream', (v) => v === '' || v === '[]' || v === 'null'],
  ['compatible_response', (v) => v === '' || v === '0' || v === 'false' || v === 'f'],
  ['allow_extra_body', (v) => v === '' || v === '0' || v === 'false' || v === 'f'],
  ['pre_cost', (v) => v === '' || v === '0' || v === '1'],
]

/**
 * The channel's plugin parameters as compact JSON: text that is not a JSON object is dropped (a
 * problem), and plugins this gateway's adapter for the type does not apply are kept but noted.
 */
function importedPlugin(plan: ImportPlan, r: Row, type: number): string {
  const text = str(r.plugin).trim()
  if (!text || text === 'null' || text === '{}') return ''
  const plugin = parsePlugin(text)
  if (Object.keys(plugin).length === 0) {
    plan.problems.push(`channels id ${r.id}: plugin is not a JSON object of plugins; dropped`)
    return ''
  }
  const unused = unusedPlugins(type, plugin)
  if (unused.length) plan.notes.push(`channels id ${r.id}: plugin ${unused.join(', ')} kept but not used by this channel type here`)
  return JSON.stringify(plugin)
}

export function mapChannels(plan: ImportPlan, rows: Row[]): Record<string, Value>[] {
  const out: Record<string, Value>[] = []
  for (const r of rows) {
    plan.count('channels').read++
    if (softDeleted(r)) {
      plan.skip('channels', r, 'deleted in the source')
      continue
    }
    const sourceType = int(r.type)
    const mapped = mapChannelType(plan.source, sourceType)
    const { key, other } = reshape(plan, r, mapped.type, sourceType)
    if (!key.trim()) {
      plan.skip('channels', r, 'no key')
      continue
    }
    let status = int(r.status, 1)
    if (status === 0) status = 1
    let statusReason = ''
    if (mapped.unsupported) {
      status = 2
      statusReason = mapped.unsupported
      plan.problems.push(`channels id ${r.id} (${str(r.name)}): ${mapped.unsupported}; imported disabled`)
    } else if (mapped.type === 8 && !str(r.base_url)) {
      status = 2
      statusReason = `imported from ${plan.source}: type ${sourceType} needs a base URL here`
      plan.problems.push(`channels id ${r.id} (${str(r.name)}): ${statusReason}; imported disabled`)
    } else if (mapped.type === 15 && key.includes('|')) {
      status = 2
      statusReason = `imported from ${plan.source}: a legacy Baidu APIKey|SecretKey; this gateway needs a Qianfan API key`
      plan.problems.push(`channels id ${r.id} (${str(r.name)}): ${statusReason}; imported disabled`)
    }
    const dropped = DROPPED_SETTINGS.filter(([col, isDefault]) => r[col] !== undefined && r[col] !== null && !isDefault(str(r[col]))).map(([col]) => col)
    if (dropped.length)
      plan.notes.push(`channels id ${r.id}: ${dropped.join(', ')} ha${dropped.length > 1 ? 've' : 's'} no equivalent here and ${dropped.length > 1 ? 'were' : 'was'} dropped`)
    const mapping = str(r.model_mapping)
    if (mapping && !parseJson(mapping)) plan.problems.push(`channels id ${r.id}: model_mapping is not JSON; kept as text`)
    out.push({
      id: int(r.id),
      type: mapped.type,
      key,
      status,
      status_reason: statusReason,
      name: str(r.name) || `imported-${r.id}`,
      weight: Math.max(0, int(r.weight, 1)),
      priority: int(r.priority),
      group: splitList(str(r.group) || 'default').join(','),
      models: splitList(str(r.models)).join(','),
      tag: str(r.tag),
      base_url: str(r.base_url).replace(/\/+$/, ''),
      other,
      balance: num(r.balance),
      balance_updated_time: int(r.balance_updated_time),
      test_time: int(r.test_time),
      response_time: int(r.response_time),
      test_model: str(r.test_model),
      used_quota: int(r.used_quota),
      model_mapping: mapping,
      model_headers: str(r.model_headers),
      custom_parameter: str(r.custom_parameter),
      proxy: str(r.proxy),
      only_chat: bool(r.only_chat) ? 1 : 0,
      plugin: importedPlugin(plan, r, mapped.type),
      created_time: int(r.created_time),
    })
  }
  plan.add({
    table: 'channels',
    rows: out,
    onConflict: {
      target: ['id'],
      update: [
        'type',
        'key',
        'status',
        'status_reason',
        'name',
        'weight',
        'priority',
        'group',
        'models',
        'tag',
        'base_url',
        'other',
        'test_model',
        'model_mapping',
        'model_headers',
        'custom_parameter',
        'proxy',
        'only_chat',
        'plugin',
      ],
    },
  })
  return out
}

/** The routing index: one ability per group × model of every imported channel. */
export function mapAbilities(plan: ImportPlan, channels: Record<string, Value>[]) {
  const rows: Record<string, Value>[] = []
  for (const ch of channels) {
    const seen = new Set<string>()
    for (const group of splitList(String(ch.group))) {
      for (const model of splitList(String(ch.models))) {
        if (seen.has(`${group}\0${model}`)) continue
        seen.add(`${group}\0${model}`)
        rows.push({ group, model, channel_id: ch.id ?? null, enabled: ch.status === 1 ? 1 : 0, priority: ch.priority ?? 0, weight: ch.weight ?? 1 })
      }
    }
  }
  // A re-run after a model or group was removed in the source must not leave its old rows behind.
  const before = clearAbilitiesSql(channels.map((c) => Number(c.id)))
  plan.add({ table: 'abilities', rows, onConflict: { target: ['group', 'model', 'channel_id'], update: ['enabled', 'priority', 'weight'] }, before })
}
