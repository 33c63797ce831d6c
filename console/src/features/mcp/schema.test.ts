/** The MCP server form: the OAuth grant's body (secret only when typed, null to remove a stored grant) and its checks. */
import { describe, expect, it } from 'vitest'
import type { McpServerView } from '@contract/mcp'
import { formDefaults, serverFormSchema, toBody } from './schema'

const ROW: McpServerView = {
  id: 1,
  name: 'calc',
  url: 'https://calc.example.com/mcp',
  header_names: [],
  oauth: { token_url: 'https://auth.example.com/token', client_id: 'gw', scope: 'tools', has_secret: true },
  groups: [],
  enabled: true,
  timeout_ms: 30000,
  free: false,
  created_time: 0,
  updated_time: 0,
}

describe('MCP server form: OAuth client credentials', () => {
  it('sends the grant with the secret only when typed, so editing keeps the stored one', () => {
    const edit = formDefaults(ROW)
    expect(edit).toMatchObject({ oauth_token_url: ROW.oauth!.token_url, oauth_client_id: 'gw', oauth_client_secret: '', oauth_scope: 'tools' })
    expect(toBody(edit, ROW).oauth).toEqual({ token_url: ROW.oauth!.token_url, client_id: 'gw', scope: 'tools' })
    expect(toBody({ ...edit, oauth_client_secret: 's3cret', oauth_scope: '' }, ROW).oauth).toEqual({ token_url: ROW.oauth!.token_url, client_id: 'gw', client_secret: 's3cret' })
  })

  it('removes a stored grant when the token URL is cleared, and sends nothing when there was none', () => {
    expect(toBody({ ...formDefaults(ROW), oauth_token_url: '' }, ROW).oauth).toBeNull()
    expect('oauth' in toBody({ ...formDefaults(), name: 'calc', url: 'https://calc.example.com/mcp' })).toBe(false)
  })

  it('needs a valid token URL and a client id with it', () => {
    const base = { ...formDefaults(), name: 'calc', url: 'https://calc.example.com/mcp' }
    expect(serverFormSchema.safeParse({ ...base, oauth_token_url: 'not a url', oauth_client_id: 'gw' }).success).toBe(false)
    const noClient = serverFormSchema.safeParse({ ...base, oauth_token_url: 'https://auth.example.com/token' })
    expect(noClient.error?.issues.map((i) => i.path.join('.'))).toEqual(['oauth_client_id'])
    expect(serverFormSchema.safeParse({ ...base, oauth_token_url: 'https://auth.example.com/token', oauth_client_id: 'gw' }).success).toBe(true)
  })
})
