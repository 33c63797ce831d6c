/** Channel form schema: the per-type key-format check (every line of a batch, empty update keys allowed). */
import { describe, expect, it } from 'vitest'
import { channelFields, updateChannelSchema } from './channels.schema'

const base = { name: 'c', models: 'm', group: 'default' }

describe('key format per channel type', () => {
  it('accepts well-formed Bedrock keys, one per line', () => {
    expect(channelFields.safeParse({ ...base, type: 32, key: 'us-east-1|AKIA|secret\neu-west-1|ABSKkey' }).success).toBe(true)
  })

  it('names the key field and the problem of a malformed line', () => {
    const res = channelFields.safeParse({ ...base, type: 32, key: 'us-east-1|AKIA|secret\nAKIA|secret' })
    expect(res.success).toBe(false)
    const issue = res.error!.issues.find((i) => i.path[0] === 'key')
    expect(issue?.message).toBe('"AKIA" is not an AWS region (e.g. us-east-1)')
  })

  it('leaves types without a format alone and lets an update keep its key', () => {
    expect(channelFields.safeParse({ ...base, type: 1, key: 'anything at all' }).success).toBe(true)
    expect(updateChannelSchema.safeParse({ ...base, id: 3, type: 32, key: '' }).success).toBe(true)
    expect(updateChannelSchema.safeParse({ ...base, id: 3, type: 32, key: 'nope' }).success).toBe(false)
  })
})
