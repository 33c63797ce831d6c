/**
 * Client-side key-format checks of the channel types whose keys have parts (the server checks the
 * same on save): Bedrock, Hunyuan, Zhipu and the Vertex AI service-account JSON. A JSON key is one
 * key even when pasted over several lines; other keys are one per line (batch mode).
 * Messages are i18n keys.
 */

const AWS_REGION = /^[a-z]{2}(-gov)?-[a-z]+-\d$/

/** The keys of a key field: one JSON document, or one key per line. */
export function keysOf(value: string): string[] {
  const trimmed = value.trim()
  if (trimmed.startsWith('{')) {
    try {
      return [JSON.stringify(JSON.parse(trimmed))]
    } catch {
      // not JSON: fall through to lines
    }
  }
  return value
    .split('\n')
    .map((k) => k.trim())
    .filter(Boolean)
}

const CHECKS: Record<number, (key: string) => string | undefined> = {
  32: (key) => {
    const parts = key.split('|').map((p) => p.trim())
    if (parts.length < 2 || parts.length > 4 || parts.some((p) => !p)) return 'channels:validation.keyBedrock'
    return AWS_REGION.test(parts[0]!) ? undefined : 'channels:validation.keyBedrockRegion'
  },
  40: (key) => {
    const parts = key.split('|').map((p) => p.trim())
    return parts.length === 2 && parts.every(Boolean) ? undefined : 'channels:validation.keyHunyuan'
  },
  16: (key) => (/^[^.\s]+\.[^.\s]+$/.test(key) ? undefined : 'channels:validation.keyZhipu'),
  42: (key) => {
    try {
      const sa = JSON.parse(key) as Record<string, unknown>
      return typeof sa.client_email === 'string' && typeof sa.private_key === 'string' ? undefined : 'channels:validation.keyVertexFields'
    } catch {
      return 'channels:validation.keyVertex'
    }
  },
}

/** The first problem of the keys for this type, as an i18n key, or undefined. */
export function keyFormatProblem(typeId: number, value: string): string | undefined {
  const check = CHECKS[typeId]
  return check ? keysOf(value).map(check).find(Boolean) : undefined
}
