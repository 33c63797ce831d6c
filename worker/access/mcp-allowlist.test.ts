import { describe, expect, it } from 'vitest'
import { mcpToolMatcher, parseMcpTools } from './mcp-allowlist'

describe('MCP tool allowlist', () => {
  it('allows every tool when the list is absent or empty', () => {
    expect(mcpToolMatcher(parseMcpTools(''))('calc__add')).toBe(true)
    expect(mcpToolMatcher(parseMcpTools('[]'))('any__thing')).toBe(true)
  })

  it('matches * as any run of characters, anchored at both ends', () => {
    const allowed = mcpToolMatcher(['calc__*', '*__search', 'web__fetch'])
    expect(allowed('calc__add')).toBe(true)
    expect(allowed('calc__')).toBe(true)
    expect(allowed('docs__search')).toBe(true)
    expect(allowed('web__fetch')).toBe(true)
    expect(allowed('web__fetch2')).toBe(false)
    expect(allowed('xcalc__add')).toBe(false)
    expect(allowed('calculator__add')).toBe(false)
  })

  it('treats regex characters literally', () => {
    const allowed = mcpToolMatcher(['a.b__c'])
    expect(allowed('a.b__c')).toBe(true)
    expect(allowed('axb__c')).toBe(false)
  })

  it('ignores a stored value that is not a list of strings', () => {
    expect(parseMcpTools('{"x":1}')).toEqual([])
    expect(parseMcpTools('not json')).toEqual([])
    expect(parseMcpTools('["calc__*", 3, ""]')).toEqual(['calc__*'])
  })
})
