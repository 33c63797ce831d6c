/**
 * Key formats of the channel types whose keys have parts — Zhipu (16), Bedrock (32), Workers AI
 * (35), Hunyuan (40), Vertex AI (42) — checked the same way by the server on save and at request
 * time and by the console's form. A check answers a problem code: the worker words it in English
 * (`keyProblemText`), the console through i18n (`channels:validation.<code>`). Also how a key field
 * splits into keys: one JSON document (a service account pasted over several lines) or one per line.
 */

export type KeyProblemCode =
  | 'keyZhipu'
  | 'keyBedrock'
  | 'keyBedrockEmpty'
  | 'keyBedrockRegion'
  | 'keyCloudflare'
  | 'keyCloudflareAccount'
  | 'keyHunyuan'
  | 'keyVertex'
  | 'keyVertexFields'

export interface KeyProblem {
  code: KeyProblemCode
  /** The offending part, when the message names it (the Bedrock region). */
  value?: string
}

const AWS_REGION = /^[a-z]{2}(-gov)?-[a-z]+-\d$/
const pipeParts = (key: string) => key.split('|').map((p) => p.trim())

const CHECKS: Record<number, (key: string) => KeyProblem | undefined> = {
  16: (key) => (/^[^.\s]+\.[^.\s]+$/.test(key.trim()) ? undefined : { code: 'keyZhipu' }),
  32: (key) => {
    const parts = pipeParts(key)
    if (parts.some((p) => p === '')) return { code: 'keyBedrockEmpty' }
    if (parts.length < 2 || parts.length > 4) return { code: 'keyBedrock' }
    return AWS_REGION.test(parts[0]!) ? undefined : { code: 'keyBedrockRegion', value: parts[0] }
  },
  35: (key) => {
    const parts = pipeParts(key)
    if (parts.length !== 2 || !parts.every(Boolean)) return { code: 'keyCloudflare' }
    return /^[0-9a-f]{32}$/i.test(parts[0]!) ? undefined : { code: 'keyCloudflareAccount' }
  },
  40: (key) => {
    const parts = pipeParts(key)
    return parts.length === 2 && parts.every(Boolean) ? undefined : { code: 'keyHunyuan' }
  },
  42: (key) => {
    let sa: unknown
    try {
      sa = JSON.parse(key)
    } catch {
      return { code: 'keyVertex' }
    }
    const fields = (sa ?? {}) as Record<string, unknown>
    return typeof fields.client_email === 'string' && typeof fields.private_key === 'string' ? undefined : { code: 'keyVertexFields' }
  },
}

/** The server's English for each problem. */
export const keyProblemText: Record<KeyProblemCode, (value?: string) => string> = {
  keyZhipu: () => 'Zhipu key is id.secret (as shown in the Zhipu console)',
  keyBedrock: () => 'Bedrock key is Region|AccessKeyID|SecretAccessKey[|SessionToken] or Region|APIKey',
  keyBedrockEmpty: () => 'Bedrock key parts must not be empty',
  keyBedrockRegion: (value) => `"${value}" is not an AWS region (e.g. us-east-1)`,
  keyCloudflare: () => 'Workers AI key is ACCOUNT_ID|API_TOKEN',
  keyCloudflareAccount: () => 'The account id is 32 hexadecimal characters',
  keyHunyuan: () => 'Hunyuan key is SecretId|SecretKey',
  keyVertex: () => 'Vertex AI key is the service-account JSON file',
  keyVertexFields: () => 'The service-account JSON needs client_email and private_key',
}

/** The problem of one key of this channel type, or undefined (also for types without a format). */
export function keyProblemOf(typeId: number, key: string): KeyProblem | undefined {
  return CHECKS[typeId]?.(key)
}

/** The same in the server's English. */
export function keyProblemMessage(typeId: number, key: string): string | undefined {
  const problem = keyProblemOf(typeId, key)
  return problem && keyProblemText[problem.code](problem.value)
}

/** A key field pasted as one JSON document, compacted to one line; undefined when it is not JSON. */
export function jsonKey(value: string): string | undefined {
  const trimmed = value.trim()
  if (!trimmed.startsWith('{')) return undefined
  try {
    return JSON.stringify(JSON.parse(trimmed))
  } catch {
    return undefined
  }
}

/** The keys of a key field: one JSON document, or one key per line. */
export function keysOf(value: string): string[] {
  const json = jsonKey(value)
  if (json) return [json]
  return value
    .split('\n')
    .map((k) => k.trim())
    .filter(Boolean)
}

/** The first problem among the keys of a key field for this type. */
export function keyFieldProblem(typeId: number, value: string): KeyProblem | undefined {
  return CHECKS[typeId]
    ? keysOf(value)
        .map((k) => keyProblemOf(typeId, k))
        .find(Boolean)
    : undefined
}
