import { describe, expect, it } from 'vitest'
import { ChunkLoadError, chunkFailure, reloadForNewVersion } from './deploy-guard'

const memory = () => {
  const m = new Map<string, string>()
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) }
}

describe('deploy guard', () => {
  it('recognises chunk-load failures of Chromium, Firefox and Safari and names the chunk', () => {
    expect(chunkFailure(new TypeError('Failed to fetch dynamically imported module: https://gw.example/assets/users-Ab12.js'))).toEqual({
      url: 'https://gw.example/assets/users-Ab12.js',
    })
    expect(chunkFailure(new TypeError('error loading dynamically imported module: https://gw.example/assets/x.js'))?.url).toBe('https://gw.example/assets/x.js')
    expect(chunkFailure(new TypeError('Importing a module script failed.'))).toEqual({ url: '' })
    expect(chunkFailure(new ChunkLoadError('route chunk timed out after 120 s', '/panel/users'))).toEqual({ url: '/panel/users' })
    expect(chunkFailure(new Error('Cannot read properties of undefined'))).toBeUndefined()
  })

  it('reloads once, then refuses a second reload within five minutes (no loop)', () => {
    const storage = memory()
    let reloads = 0
    const reload = () => void reloads++
    expect(reloadForNewVersion(storage, reload, 1_000_000)).toBe(true)
    expect(reloadForNewVersion(storage, reload, 1_000_000 + 60_000)).toBe(false)
    expect(reloads).toBe(1)
    expect(reloadForNewVersion(storage, reload, 1_000_000 + 6 * 60_000)).toBe(true)
    expect(reloads).toBe(2)
  })
})
