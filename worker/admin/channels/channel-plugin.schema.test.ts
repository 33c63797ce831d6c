/** Channel plugin parameters: validated per type, stored as compact JSON, kept when an update leaves them out. */
import { describe, expect, it } from 'vitest'
import { setupRoot } from '../../test/client'
import { channelFields } from './channels.schema'

const base = { name: 'c', key: 'k', models: 'm', group: 'default', base_url: 'https://relay.test' }
const issues = (type: number, plugin: unknown) => {
  const res = channelFields.safeParse({ ...base, type, plugin })
  return res.success ? [] : res.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}

describe('plugin validation', () => {
  it('checks the plugins the type applies, strictly', () => {
    expect(issues(8, { customize: { '1': '/api/chat', '3': 'disable', '5': '' } })).toEqual([])
    expect(issues(8, { customize: { '1': 'api/chat' } })).toEqual(['plugin: customize.1 must be empty, "disable" or a path starting with /'])
    expect(issues(8, { customize: { '12': '/x' } })).toEqual(['plugin: customize: unknown parameter "12"'])
    expect(issues(8, { customize: { '1': true } })).toEqual(['plugin: customize.1 must be text'])
    expect(issues(39, { headers: { 'CF-Access-Client-Id': 'a\r\nInjected: 1' } })).toEqual(['plugin: headers.CF-Access-Client-Id must be printable ASCII on one line'])
    expect(issues(24, { voice: { alloy: 'zh-CN-YunxiNeural|boy', echo: 'bad voice' } })).toEqual(['plugin: voice.echo must be a voice name, optionally followed by |role'])
  })

  it('keeps plugins the type does not apply, and refuses what is not plugin-shaped', () => {
    expect(issues(17, { web_search: { enable: true }, use_openai_api: { enable: false } })).toEqual([])
    expect(issues(1, '{not json')).toEqual(['plugin: Plugin parameters must be a valid JSON object'])
    expect(issues(1, { web_search: true })).toEqual(['plugin: Plugin parameters must be an object of plugins, each an object of text or true/false values'])
    expect(issues(1, { p: { v: 1 } })).toHaveLength(1)
    expect(channelFields.parse({ ...base, type: 8, plugin: '{ "customize": { "1": "/c" } }' }).plugin).toBe('{"customize":{"1":"/c"}}')
    expect(channelFields.parse({ ...base, type: 8, plugin: {} }).plugin).toBe('')
  })

  it('is saved, returned and kept by an update that leaves it out', async () => {
    const root = await setupRoot()
    const created = await root.post('/api/channel/', { ...base, type: 8, plugin: { customize: { '1': '/c' } } })
    expect(created.status).toBe(200)
    const id = created.body.data[0].id
    expect(created.body.data[0].plugin).toBe('{"customize":{"1":"/c"}}')
    const { plugin: _p, ...withoutPlugin } = (await root.get(`/api/channel/${id}`)).body.data
    expect((await root.put('/api/channel/', { ...withoutPlugin, models: 'm', group: 'default', key: '' })).status).toBe(200)
    expect((await root.get(`/api/channel/${id}`)).body.data.plugin).toBe('{"customize":{"1":"/c"}}')
    const bad = await root.put('/api/channel/', { ...withoutPlugin, models: 'm', group: 'default', key: '', plugin: { customize: { '1': 'x' } } })
    expect(bad.status).toBe(400)
    expect(bad.body.data.fields.plugin).toMatch(/customize\.1/)
  })
})
