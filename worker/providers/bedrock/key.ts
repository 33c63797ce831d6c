/** Bedrock channel keys: `Region|AccessKeyID|SecretAccessKey[|SessionToken]` (SigV4) or `Region|APIKey` (bearer). */
import { keyProblemMessage } from '../../../shared/contract/key-format'

export type BedrockCredentials =
  | { kind: 'sigv4'; region: string; accessKeyId: string; secretAccessKey: string; sessionToken?: string }
  | { kind: 'apiKey'; region: string; apiKey: string }

/** Why a key cannot be a Bedrock key, or undefined when it can (shared/contract/key-format.ts). */
export const bedrockKeyProblem = (key: string) => keyProblemMessage(32, key)

export function parseBedrockKey(key: string): BedrockCredentials {
  const problem = bedrockKeyProblem(key)
  if (problem) throw new Error(problem)
  const [region, a, b, c] = key.split('|').map((p) => p.trim()) as [string, string, string?, string?]
  if (b === undefined) return { kind: 'apiKey', region, apiKey: a }
  return { kind: 'sigv4', region, accessKeyId: a, secretAccessKey: b, ...(c ? { sessionToken: c } : {}) }
}
