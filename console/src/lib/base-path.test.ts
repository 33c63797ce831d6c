import { describe, expect, it } from 'vitest'
import { basePathFromHref, withBase } from './base-path'

describe('the console’s base path', () => {
  it('is read from <base href> without its trailing slash', () => {
    expect(basePathFromHref('/gw/')).toBe('/gw')
    expect(basePathFromHref('/team/ai-gw/')).toBe('/team/ai-gw')
    expect(basePathFromHref('https://host.example/gw/')).toBe('/gw')
  })

  it('is the root when the tag is absent or points at /', () => {
    expect(basePathFromHref(null)).toBe('')
    expect(basePathFromHref(undefined)).toBe('')
    expect(basePathFromHref('/')).toBe('')
  })

  it('prefixes root-relative gateway paths only', () => {
    expect(withBase('/api/status', '/gw')).toBe('/gw/api/status')
    expect(withBase('/v1/models', '/gw')).toBe('/gw/v1/models')
    expect(withBase('/api/status', '')).toBe('/api/status')
    expect(withBase('https://pay.example/checkout', '/gw')).toBe('https://pay.example/checkout')
  })
})
