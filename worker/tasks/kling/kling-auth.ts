/**
 * Kling's bearer: a channel key `accessKey|secretKey` becomes a short-lived HS256 JWT
 * (`{alg:HS256,typ:JWT}`, claims `{exp: now+1800, iss: accessKey, nbf: now-5}` in seconds, keyed
 * with the secret key); any other key is sent as it is.
 */
const encoder = new TextEncoder()

const b64url = (bytes: Uint8Array | string) => {
  const raw = typeof bytes === 'string' ? encoder.encode(bytes) : bytes
  let bin = ''
  for (const b of raw) bin += String.fromCharCode(b)
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export async function klingJwt(accessKey: string, secretKey: string, nowSeconds: number): Promise<string> {
  const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify({ exp: nowSeconds + 1800, iss: accessKey, nbf: nowSeconds - 5 }))}`
  const key = await crypto.subtle.importKey('raw', encoder.encode(secretKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return `${head}.${b64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(head))))}`
}

/** The Authorization value for a channel key. */
export async function klingAuthorization(channelKey: string): Promise<string> {
  const bar = channelKey.indexOf('|')
  if (bar <= 0 || bar === channelKey.length - 1) return `Bearer ${channelKey}`
  return `Bearer ${await klingJwt(channelKey.slice(0, bar), channelKey.slice(bar + 1), Math.floor(Date.now() / 1000))}`
}
