/** Joins a channel base URL with an API path, without doubling a version segment the admin already put in the base URL. */
export function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '')
  const version = path.match(/^\/(v\d+(?:beta)?)\//)?.[1]
  if (version && base.endsWith(`/${version}`)) return base + path.slice(version.length + 1)
  return base + path
}

/** Reads an upstream error body as text, capped so a hostile upstream cannot exhaust memory. */
export async function readCapped(res: Response, limit = 64 * 1024): Promise<string> {
  if (!res.body) return ''
  const reader = res.body.getReader()
  const decoder = new TextDecoder()
  let out = ''
  while (out.length < limit) {
    const { done, value } = await reader.read()
    if (done) break
    out += decoder.decode(value, { stream: true })
  }
  await reader.cancel().catch(() => {})
  return out.slice(0, limit)
}

/** Best-effort error message from any JSON error shape ({error:{message}}, {error:"…"}, {message}, {detail}). */
export function errorFromBody(body: string): { message: string; type?: string; code?: string } {
  try {
    const j = JSON.parse(body) as Record<string, any>
    const e = Array.isArray(j) ? j[0]?.error : j.error
    if (e && typeof e === 'object') {
      return {
        message: String(e.message ?? e.status ?? 'upstream error'),
        type: typeof e.type === 'string' ? e.type : typeof e.status === 'string' ? e.status : undefined,
        code: e.code != null ? String(e.code) : undefined,
      }
    }
    if (typeof e === 'string') return { message: e }
    if (typeof j.message === 'string') return { message: j.message, type: j.type }
    if (typeof j.detail === 'string') return { message: j.detail }
  } catch {
    // not JSON
  }
  return { message: body.trim().slice(0, 500) || 'upstream error' }
}
