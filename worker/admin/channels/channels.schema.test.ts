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

  it('keeps a service-account JSON pasted over several lines as one compact key', () => {
    const sa = { type: 'service_account', client_email: 'a@b.iam.gserviceaccount.com', private_key: '-----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----\n' }
    const res = channelFields.safeParse({ ...base, type: 42, key: JSON.stringify(sa, null, 2), other: 'us-central1|p' })
    expect(res.success).toBe(true)
    expect(res.data!.key).toBe(JSON.stringify(sa))
    const bad = channelFields.safeParse({ ...base, type: 42, key: '{\n "client_email": "x"\n}' })
    expect(bad.error!.issues.find((i) => i.path[0] === 'key')?.message).toBe('The service-account JSON needs client_email and private_key')
  })

  it('leaves types without a format alone and lets an update keep its key', () => {
    expect(channelFields.safeParse({ ...base, type: 1, key: 'anything at all' }).success).toBe(true)
    expect(updateChannelSchema.safeParse({ ...base, id: 3, type: 32, key: '' }).success).toBe(true)
    expect(updateChannelSchema.safeParse({ ...base, id: 3, type: 32, key: 'nope' }).success).toBe(false)
  })
})
