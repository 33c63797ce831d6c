import { describe, expect, it } from 'vitest'
import { jsonKey, keyFieldProblem, keyProblemMessage, keyProblemOf, keysOf } from './key-format'

const ACCOUNT = '0123456789abcdef0123456789abcdef'

describe('channel key formats', () => {
  it.each([
    [16, 'id.secret', undefined],
    [16, 'nodot', 'keyZhipu'],
    [32, 'us-east-1|AKIA|secret', undefined],
    [32, 'us-east-1|apikey', undefined],
    [32, 'us-east-1||secret', 'keyBedrockEmpty'],
    [32, 'us-east-1', 'keyBedrock'],
    [32, 'AKIA|secret', 'keyBedrockRegion'],
    [35, `${ACCOUNT}|token`, undefined],
    [35, 'token', 'keyCloudflare'],
    [35, 'acct|token', 'keyCloudflareAccount'],
    [40, 'AKID|SK', undefined],
    [40, 'a|b|c', 'keyHunyuan'],
    [42, '{"client_email":"a","private_key":"b"}', undefined],
    [42, 'AIza', 'keyVertex'],
    [42, '{"client_email":"a"}', 'keyVertexFields'],
    [1, 'anything goes', undefined],
  ])('type %i key %s → %s', (type, key, code) => {
    expect(keyProblemOf(type, key)?.code).toBe(code)
  })

  it('words a problem in English for the API, naming the bad region', () => {
    expect(keyProblemMessage(32, 'AKIA|secret')).toBe('"AKIA" is not an AWS region (e.g. us-east-1)')
    expect(keyProblemMessage(32, 'us-east-1|k')).toBeUndefined()
  })

  it('keeps a service-account JSON over several lines as one key, other keys one per line', () => {
    const sa = '{\n  "client_email": "a",\n  "private_key": "b"\n}'
    expect(keysOf(sa)).toEqual([jsonKey(sa)])
    expect(jsonKey(sa)).toBe('{"client_email":"a","private_key":"b"}')
    expect(keysOf(' a \n\n b ')).toEqual(['a', 'b'])
    expect(keyFieldProblem(40, 'a|b\nbad')).toEqual({ code: 'keyHunyuan' })
    expect(keyFieldProblem(42, sa)).toBeUndefined()
  })
})
