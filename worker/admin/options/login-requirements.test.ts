import { describe, expect, it } from 'vitest'
import { setupRoot } from '../../test/client'

const CASES: { toggle: string; creds: Record<string, string>; label: string }[] = [
  { toggle: 'GitHubOAuthEnabled', label: 'GitHub login', creds: { GitHubClientId: 'id', GitHubClientSecret: 'secret' } },
  { toggle: 'OIDCAuthEnabled', label: 'OIDC login', creds: { OIDCClientId: 'id', OIDCClientSecret: 'secret', OIDCIssuer: 'https://id.example.com' } },
  { toggle: 'WeChatAuthEnabled', label: 'WeChat login', creds: { WeChatServerAddress: 'https://wx.example.com', WeChatServerToken: 'token' } },
  { toggle: 'LarkAuthEnabled', label: 'Lark login', creds: { LarkClientId: 'cli', LarkClientSecret: 'secret' } },
  { toggle: 'TurnstileCheckEnabled', label: 'Turnstile', creds: { TurnstileSiteKey: 'site', TurnstileSecretKey: 'secret' } },
  { toggle: 'EmailVerificationEnabled', label: 'email verification', creds: { SMTPServer: 'smtp.example.com', SMTPAccount: 'bot@example.com', SMTPToken: 'pw' } },
]

describe('enabling a login method requires its credentials', () => {
  it.each(CASES)('$toggle', async ({ toggle, creds, label }) => {
    const root = await setupRoot()
    const keys = Object.keys(creds)
    const bare = await root.put('/api/option/', { key: toggle, value: 'true' })
    expect(bare.status).toBe(400)
    expect(bare.body.message).toBe(`Cannot enable ${label}: set ${keys.join(', ')} first`)
    expect(bare.body.data.fields[toggle]).toBe(bare.body.message)

    // One credential short is still refused, naming what is missing.
    const [lastKey] = keys.slice(-1)
    const partial = await root.put('/api/option/', { options: { ...creds, [lastKey!]: '', [toggle]: 'true' } })
    expect(partial.body.message).toBe(`Cannot enable ${label}: set ${lastKey} first`)

    expect((await root.put('/api/option/', { options: { ...creds, [toggle]: 'true' } })).status).toBe(200)
    const status = await root.get('/api/option/')
    expect(status.body.data.find((o: { key: string }) => o.key === toggle).value).toBe('true')
    // Clearing a credential while the method is on is refused; turning it off first works.
    expect((await root.put('/api/option/', { key: keys[0]!, value: '' })).status).toBe(400)
    expect((await root.put('/api/option/', { options: { [toggle]: 'false', [keys[0]!]: '' } })).status).toBe(200)
  })

  it('EmailDomainRestrictionEnabled needs a non-empty whitelist', async () => {
    const root = await setupRoot()
    const empty = await root.put('/api/option/', { options: { EmailDomainWhitelist: ' , ', EmailDomainRestrictionEnabled: 'true' } })
    expect(empty.status).toBe(400)
    expect(empty.body.message).toBe('Cannot enable the email domain whitelist: set EmailDomainWhitelist first')
    // The default list is not empty, so the toggle alone is fine.
    expect((await root.put('/api/option/', { options: { EmailDomainWhitelist: 'example.com' } })).status).toBe(200)
    expect((await root.put('/api/option/', { key: 'EmailDomainRestrictionEnabled', value: 'true' })).status).toBe(200)
  })

  it('leaves unrelated saves and disabled methods alone', async () => {
    const root = await setupRoot()
    expect((await root.put('/api/option/', { options: { GitHubClientSecret: '', SystemName: 'Free to change' } })).status).toBe(200)
    expect((await root.put('/api/option/', { key: 'GitHubOAuthEnabled', value: 'false' })).status).toBe(200)
  })
})
