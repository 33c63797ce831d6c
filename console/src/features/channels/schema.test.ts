import { describe, expect, it } from 'vitest'
import { channelFormDefaults, channelFormSchema } from './schema'
import type { ChannelType } from '@contract/channels'
import { keyProblemText, type KeyProblemCode } from '@contract/key-format'
import en from '@/i18n/locales/en_US/channels.json'
import ja from '@/i18n/locales/ja_JP/channels.json'
import zh from '@/i18n/locales/zh_CN/channels.json'

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

describe('key format messages', () => {
  const codes: KeyProblemCode[] = Object.keys(keyProblemText) as KeyProblemCode[]
  it.each([
    ['zh_CN', zh],
    ['en_US', en],
    ['ja_JP', ja],
  ])('every key problem has %s text', (_, locale) => {
    expect(codes.filter((code) => !(locale.validation as Record<string, string>)[code])).toEqual([])
  })

  it('shows the Workers AI key problem on the form as an i18n key', () => {
    const cloudflare: ChannelType = { ...openai, id: 35, name: 'Cloudflare' }
    const result = channelFormSchema([cloudflare], true).safeParse({ ...form('35'), key: 'acct|token' })
    expect(result.success ? [] : result.error.issues.map((i) => i.message)).toContain('channels:validation.keyCloudflareAccount')
  })
})
