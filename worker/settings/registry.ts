/**
 * Every site setting, ready to validate: the runtime-free metadata (key, kind, default, bounds,
 * secret and internal flags) lives in shared/contract/settings.ts, shared with the console's
 * settings form, and the value checks it implies in shared/contract/option-checks.ts, shared with
 * the importer. The settings page, `/api/option` and `/api/status` all read this one table.
 */
import { OPTION_META, type OptionKey, type OptionKind, type OptionMeta } from '../../shared/contract/settings'

export interface OptionDef {
  kind: OptionKind
  default: string
  secret?: boolean
  /** Not editable through the API (internal state). */
  internal?: boolean
}

function optionDef(meta: OptionMeta): OptionDef {
  const def: OptionDef = { kind: meta.kind, default: meta.default }
  if (meta.secret) def.secret = true
  if (meta.internal) def.internal = true
  return def
}

export const OPTIONS = Object.fromEntries(Object.entries(OPTION_META).map(([key, meta]) => [key, optionDef(meta)])) as Record<OptionKey, OptionDef>

export const OPTION_KEYS = Object.keys(OPTIONS) as OptionKey[]
