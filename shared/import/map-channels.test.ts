/** The importer carries one-hub's channel plugin parameters: compact JSON, unusable text dropped, plugins not applied here noted. */
import { describe, expect, it } from 'vitest'
import { mapChannels } from './map-channels'
import { ImportPlan } from './plan'

const channel = (id: number, type: number, plugin: string) => ({ id, type, key: `k${id}`, name: `c${id}`, models: 'm', group: 'default', base_url: 'https://relay.test', plugin })

describe('channel plugin import', () => {
  it('keeps the plugins as compact JSON and says which this type does not use', () => {
    const plan = new ImportPlan('one-hub')
    const rows = mapChannels(plan, [
      channel(1, 8, '{ "customize": { "1": "/api/chat", "3": "disable" } }'),
      channel(2, 16, '{"web_search":{"enable":true},"retrieval":{"knowledge_id":"kb"}}'),
      channel(3, 8, 'not json'),
      channel(4, 1, ''),
    ])
    expect(rows.map((r) => r.plugin)).toEqual(['{"customize":{"1":"/api/chat","3":"disable"}}', '{"web_search":{"enable":true},"retrieval":{"knowledge_id":"kb"}}', '', ''])
    expect(plan.notes).toContain('channels id 2: plugin web_search, retrieval kept but not used by this channel type here')
    expect(plan.notes.some((n) => n.startsWith('channels id 1:'))).toBe(false)
    expect(plan.problems).toContain('channels id 3: plugin is not a JSON object of plugins; dropped')
  })
})
