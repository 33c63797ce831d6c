/** Bedrock channel keys: `Region|AccessKeyID|SecretAccessKey[|SessionToken]` (SigV4) or `Region|APIKey` (bearer). */

export type BedrockCredentials =
  | { kind: 'sigv4'; region: string; accessKeyId: string; secretAccessKey: string; sessionToken?: string }
  | { kind: 'apiKey'; region: string; apiKey: string }

/** Why a key cannot be a Bedrock key, or undefined when it can. */
export function bedrockKeyProblem(key: string): string | undefined {
  const parts = key.split('|').map((p) => p.trim())
  if (parts.some((p) => p === '')) return 'Bedrock key parts must not be empty'
  if (parts.length < 2 || parts.length > 4) return 'Bedrock key is Region|AccessKeyID|SecretAccessKey[|SessionToken] or Region|APIKey'
  if (!/^[a-z]{2}(-gov)?-[a-z]+-\d$/.test(parts[0]!)) return `"${parts[0]}" is not an AWS region (e.g. us-east-1)`
  return undefined
}

export function parseBedrockKey(key: string): BedrockCredentials {
  const problem = bedrockKeyProblem(key)
  if (problem) throw new Error(problem)
  const [region, a, b, c] = key.split('|').map((p) => p.trim()) as [string, string, string?, string?]
  if (b === undefined) return { kind: 'apiKey', region, apiKey: a }
  return { kind: 'sigv4', region, accessKeyId: a, secretAccessKey: b, ...(c ? { sessionToken: c } : {}) }
}
