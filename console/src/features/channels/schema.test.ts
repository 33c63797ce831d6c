import { describe, expect, it } from 'vitest'
import { channelFormDefaults, channelFormSchema } from './schema'
import type { ChannelType } from '@contract/channels'

const openai: ChannelType = {
  id: 1,
  name: 'OpenAI',
  default_base_url: 'https://api.openai.com',
  key_hint: '',
  base_url_hint: '',
  other_hint: '',
  balance: true,
  models: ['gpt-4o'],
}

const form = (type: string) => ({ ...channelFormDefaults(undefined, openai), type, name: 'c', key: 'sk-x', models: ['gpt-4o'] })

describe('channel form', () => {
  it('says "Channel type error" for a type the gateway does not know (an imported channel’s)', () => {
    const schema = channelFormSchema([openai], true)
    expect(schema.safeParse(form('1')).success).toBe(true)
    const unknown = schema.safeParse(form('999'))
    expect(unknown.success ? [] : unknown.error.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual(['type', 'channels:validation.typeError'])
  })
})
