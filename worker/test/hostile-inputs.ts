/**
 * Generated malformed and hostile request bodies and queries for the bad-input suite: wrong types,
 * missing fields, injection strings, overflowing numbers, deep nesting, oversized and non-UTF-8
 * bodies, wrong content types.
 */

export interface HostileBody {
  name: string
  body: BodyInit
  contentType: string
}

const SQL = "'; DROP TABLE users; --"
const HTML = '<script>alert(1)</script><img src=x onerror=alert(1)>'

const fieldsWith = (v: unknown) =>
  Object.fromEntries(
    [
      'id',
      'name',
      'key',
      'model',
      'models',
      'group',
      'quota',
      'remain_quota',
      'priority',
      'weight',
      'type',
      'username',
      'password',
      'email',
      'status',
      'messages',
      'input',
      'prompt',
      'action',
      'value',
      'ids',
      'options',
      'count',
      'base_url',
      'symbol',
      'ratio',
    ].map((k) => [k, v])
  )

function deepJson(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth)
}

export function hostileBodies(): HostileBody[] {
  const json = (name: string, value: unknown) => ({ name, body: JSON.stringify(value), contentType: 'application/json' })
  return [
    json('empty object', {}),
    json('wrong types: objects', fieldsWith({ nested: true })),
    json('wrong types: arrays', fieldsWith([1, 2])),
    json('wrong types: booleans', fieldsWith(true)),
    json('SQL injection strings', fieldsWith(SQL)),
    json('HTML injection strings', fieldsWith(HTML)),
    json('negative numbers', fieldsWith(-1)),
    json('overflowing numbers', fieldsWith(9007199254740993)),
    { name: 'infinite number', body: `{"quota": 1e400, "id": 1e400, "remain_quota": -1e400}`, contentType: 'application/json' },
    json('very long strings', fieldsWith('x'.repeat(100_000))),
    json('JSON array', [1, 2, 3]),
    json('JSON null', null),
    { name: 'deeply nested JSON', body: deepJson(100_000), contentType: 'application/json' },
    { name: 'malformed JSON', body: '{"name": "x", ', contentType: 'application/json' },
    { name: 'invalid UTF-8', body: new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]), contentType: 'application/json' },
    { name: 'text/plain body', body: 'hello world', contentType: 'text/plain' },
    { name: 'form body', body: 'name=x&quota=-1', contentType: 'application/x-www-form-urlencoded' },
    { name: 'oversized body (3 MB)', body: JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) }), contentType: 'application/json' },
  ]
}

export const HOSTILE_QUERIES = [
  '?p=-1&page_size=100000',
  `?keyword=${encodeURIComponent(SQL)}&order=${encodeURIComponent('id; DROP TABLE users')}`,
  `?type=abc&start_timestamp=-5&end_timestamp=1e400&channel_id=${encodeURIComponent(HTML)}`,
  '?p=99999999999999999999999&model=%00%ff',
]

export const HOSTILE_PARAMS = ['abc', '-1', '0', '99999999999999999999', `${encodeURIComponent(SQL)}`]
