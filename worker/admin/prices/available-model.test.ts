/**
 * /api/available_model: anonymous visitors see the models of public groups only (a private group's
 * catalogue is not advertised); a signed-in user sees their own group's models with its ratio.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { groupLimitsSnapshot } from '../../access/group-limits'
import { TestClient, setupRoot, signedInUser } from '../../test/client'
import { createChannel, setPrice } from '../../test/factories'

describe('available models', () => {
  it('shows anonymous callers only public groups, and a user their own group', async () => {
    await setupRoot()
    await env.DB.prepare(`INSERT INTO user_groups (symbol, name, ratio, api_rate, public, enable) VALUES ('open', 'Open', 1, 0, 1, 1)`).run()
    await groupLimitsSnapshot.invalidate(env)
    await setPrice('private-model', 1, 1)
    await createChannel({ key: 'a', group: 'default', models: 'private-model' })
    await createChannel({ key: 'b', group: 'open', models: 'public-model' })
    const anon = new TestClient()
    await anon.get('/api/status')
    const seen = (await anon.get('/api/available_model')).body.data
    expect(seen.models.map((m: { model: string }) => m.model)).toEqual(['public-model'])
    const { client } = await signedInUser('catalogue-reader')
    const mine = (await client.get('/api/available_model')).body.data
    expect(mine).toMatchObject({ group: 'default', models: [{ model: 'private-model', priced: true, owned_by: expect.any(String) }] })
  })
})
