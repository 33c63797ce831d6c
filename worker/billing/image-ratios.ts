/**
 * Image size and quality ratios applied to a times-priced image model, relative to its base price
 * (the price of one 1024×1024 standard image). Defaults follow OpenAI's price list for dall-e-2,
 * dall-e-3 and gpt-image-1; admins override them with the `ImagePriceRatios` setting
 * (model → { "quality|size" or "size" or "quality": ratio }).
 */
import type { Settings } from '../settings/store'

export type ImageRatioTable = Record<string, Record<string, number>>

export const DEFAULT_IMAGE_RATIOS: ImageRatioTable = {
  // $0.020 / $0.018 / $0.016
  'dall-e-2': { '1024x1024': 1, '512x512': 0.9, '256x256': 0.8 },
  // standard $0.040 / $0.080, hd $0.080 / $0.120
  'dall-e-3': { '1024x1024': 1, '1024x1792': 2, '1792x1024': 2, 'hd|1024x1024': 2, 'hd|1024x1792': 3, 'hd|1792x1024': 3 },
  // relative to $0.04: low $0.011 / $0.016, medium $0.042 / $0.063, high $0.167 / $0.25; auto bills as medium
  'gpt-image-1': {
    'low|1024x1024': 0.275,
    'low|1024x1536': 0.4,
    'low|1536x1024': 0.4,
    'medium|1024x1024': 1.05,
    'medium|1024x1536': 1.575,
    'medium|1536x1024': 1.575,
    'high|1024x1024': 4.175,
    'high|1024x1536': 6.25,
    'high|1536x1024': 6.25,
    low: 0.275,
    medium: 1.05,
    high: 4.175,
    auto: 1.05,
  },
}

/** Output tokens one image may cost a token-priced image model at most (gpt-image-1 high, 1536 px). */
export const MAX_IMAGE_OUTPUT_TOKENS = 6240

function ratioIn(table: ImageRatioTable, model: string, size: string | undefined, quality: string): number | undefined {
  if (!Object.hasOwn(table, model)) return undefined
  const row = table[model]!
  for (const key of [size && `${quality}|${size}`, size, quality]) {
    if (key && Object.hasOwn(row, key) && typeof row[key] === 'number') return row[key]
  }
  return undefined
}

/** The size/quality ratio of one image of `model` (1 when the tables name none). */
export function imageRatio(settings: Settings, model: string, size?: string, quality = 'auto'): number {
  const custom = settings.json<ImageRatioTable>('ImagePriceRatios')
  return ratioIn(custom, model, size, quality) ?? ratioIn(DEFAULT_IMAGE_RATIOS, model, size, quality) ?? 1
}
