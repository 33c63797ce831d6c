/**
 * A tiny management-API client for the benchmark scripts: keeps the session and XSRF cookies in a
 * jar, sends the double-submit header, and unwraps `{success, data}` (throwing on a refusal).
 */
export async function api(base, jar, method, p, body) {
  const headers = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') }
  if (jar.has('XSRF-TOKEN')) headers['X-XSRF-TOKEN'] = jar.get('XSRF-TOKEN')
  if (body) headers['content-type'] = 'application/json'
  const res = await fetch(base + p, { method, headers, body: body && JSON.stringify(body) })
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';')
    const i = pair.indexOf('=')
    jar.set(pair.slice(0, i), pair.slice(i + 1))
  }
  const json = await res.json()
  if (!json.success) throw new Error(`${method} ${p}: ${json.message}`)
  return json.data
}
