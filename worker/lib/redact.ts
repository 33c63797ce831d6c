/**
 * Redaction of key-like strings (OpenAI `sk-…` keys, AWS access key ids, Google API keys, bearer
 * tokens, key/token query parameters) in text that leaves the gateway or lands in a log: supplier
 * errors shown to clients and the log detail admins read.
 */

const PATTERNS: [RegExp, string][] = [
  [/\bsk-[A-Za-z0-9_*.\-…]{6,}/g, 'sk-[redacted]'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, '[redacted-aws-key]'],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, '[redacted-google-key]'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [redacted]'],
  [/([?&](?:key|api_key|apikey|access_token|token)=)[^&\s"']+/gi, '$1[redacted]'],
  [/\b(api[_-]?key|x-api-key|secret)(["']?\s*[:=]\s*["']?)[A-Za-z0-9._\-]{8,}/gi, '$1$2[redacted]'],
]

export function redactSecrets(text: string): string {
  let out = text
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement)
  return out
}
