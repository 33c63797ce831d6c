/**
 * What the four mock payment gateways (scripts/mock-payments/*.mjs) share: RSA key pairs and
 * signatures, the sorted-query string Alipay and Epay sign, money as cents, ids, and the small
 * HTTP helpers (body reading, answers, the one-button cashier page).
 */
import crypto from 'node:crypto'

export const rsaPair = () => {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }), publicPem: publicKey.export({ type: 'spki', format: 'pem' }), privateKey, publicKey }
}
export const bare = (pem) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '')
export const rsaSign = (key, text) => crypto.createSign('RSA-SHA256').update(text).sign(key, 'base64')
export const rsaVerify = (key, text, sig) => {
  try {
    return crypto
      .createVerify('RSA-SHA256')
      .update(text)
      .verify(key, sig ?? '', 'base64')
  } catch {
    return false
  }
}
export const sortedQuery = (params, skip = ['sign', 'sign_type']) =>
  Object.keys(params)
    .filter((k) => !skip.includes(k) && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&')
export const md5 = (s) => crypto.createHash('md5').update(s).digest('hex')
export const rid = (prefix) => `${prefix}${crypto.randomBytes(8).toString('hex')}`
export const money = (cents) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
export const cents = (text) => Math.round(Number(text) * 100)
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** A test's tamper mode `trade_no` names another order. */
export const tamperedTradeNo = (o, tamper) => (tamper === 'trade_no' ? `${o.tradeNo}9` : o.tradeNo)

/** The request fields of a form gateway (Alipay, Epay): query string plus a POSTed form. */
export function formParams(req, url, raw) {
  const p = Object.fromEntries(url.searchParams)
  if (req.method === 'POST') Object.assign(p, Object.fromEntries(new URLSearchParams(raw)))
  return p
}

export function readBody(req) {
  return new Promise((resolve) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
  })
}

export const send = (res, status, body, headers = {}) => {
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json', ...headers })
  res.end(typeof body === 'string' ? body : JSON.stringify(body))
}

export function page(title, lines, action, buttonLabel = 'Pay') {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font-size:1.1rem;padding:.6rem 1.4rem}</style></head>
<body><h1>${esc(title)}</h1>${lines.map((l) => `<p>${esc(l)}</p>`).join('')}
<form method="post" action="${esc(action)}"><button type="submit" id="mock-pay">${esc(buttonLabel)}</button></form></body></html>`
}

/** The order whose id the path captures with `pattern`, or undefined when there is none. */
export function orderFromPath(pattern, url, orders) {
  const m = pattern.exec(url.pathname)
  return (m && orders.get(m[1])) || undefined
}
