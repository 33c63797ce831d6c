/**
 * Binding sign-in methods from the profile, in the browser against a private gateway and local
 * stand-ins for the providers (console/e2e/support/identity.ts): a password user binds and unbinds
 * OIDC, WeChat (codes from a fake WeChat server) and an email (code mailed to a local SMTP server).
 */
import { describe, expect, it } from 'vitest'
import { expectNoOverflow, openPage, shot } from './support/browser'
import { signIn } from './support/console'
import { THEMES, member, root, themedPage, useIdentityProviders } from './support/identity'
import { useFreshGateway } from './support/suite'

describe('account binding from the profile', () => {
  const suite = useFreshGateway(root)
  const idp = useIdentityProviders(suite)

  it('binds and unbinds OIDC, WeChat and an email from the profile of a password user', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await page.goto('/register')
    await page.getByTestId('oauth-buttons').getByText('or sign up with').waitFor()
    const form = page.locator('form')
    await form.locator('input[name="username"]').fill(member.username)
    await form.locator('input[name="password"]').fill(member.password)
    await form.locator('input[name="confirm_password"]').fill(member.password)
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL('**/login')
    await signIn(page, member)
    await page.goto('/panel/profile')
    for (const key of ['email', 'github', 'oidc', 'wechat', 'lark']) await page.locator(`[data-testid="binding-${key}"][data-bound="false"]`).waitFor()
    // No Telegram bot is configured, so no Telegram row.
    expect(await page.getByTestId('binding-telegram').count()).toBe(0)

    // OIDC: profile → provider → /oauth/oidc → message 'bind' → back on the profile, same session.
    idp.claims = { sub: 'oidc-sub-member', preferred_username: 'someone-else', email: 'member@idp.test' }
    const callback = page.waitForResponse((res) => res.url().includes('/api/oauth/oidc?'))
    await page.getByRole('button', { name: 'Bind OIDC' }).click()
    expect(await (await callback).json()).toMatchObject({ success: true, message: 'bind' })
    await page.waitForURL('**/panel/profile')
    await page.getByText('Bound successfully').first().waitFor()
    await page.locator('[data-testid="binding-oidc"][data-bound="true"]').getByText('oidc-sub-member').waitFor()
    await page.getByTestId('profile-username').getByText(`@${member.username}`).waitFor()

    await page.getByTestId('unbind-oidc').click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Unbind' }).click()
    await page.getByText('Unbound successfully').first().waitFor()
    await page.locator('[data-testid="binding-oidc"][data-bound="false"]').waitFor()

    // WeChat: a wrong code is refused, the right one binds.
    idp.wechatCodes.set('515151', 'openid-member')
    await page.getByRole('button', { name: 'Bind WeChat' }).click()
    const wechatDialog = page.getByTestId('wechat-dialog')
    await wechatDialog.getByTestId('wechat-qrcode').waitFor()
    await wechatDialog.locator('input[name="code"]').fill('999999')
    await wechatDialog.getByRole('button', { name: 'Bind WeChat' }).click()
    await page.getByText('Error: WeChat login failed: verification code is wrong or expired').waitFor()
    await wechatDialog.locator('input[name="code"]').fill('515151')
    await wechatDialog.getByRole('button', { name: 'Bind WeChat' }).click()
    await wechatDialog.waitFor({ state: 'detached' })
    await page.locator('[data-testid="binding-wechat"][data-bound="true"]').getByText('openid-member').waitFor()

    // Email: send a code (60 s countdown), type it from the mail, bound.
    const address = 'member@example.com'
    await page.getByRole('button', { name: 'Bind Email' }).click()
    const emailDialog = page.getByTestId('email-bind-dialog')
    await emailDialog.getByRole('button', { name: 'Bind email' }).click()
    await emailDialog.getByText('Please enter a valid email address').waitFor()
    await emailDialog.locator('input[name="email"]').fill(address)
    await emailDialog.getByRole('button', { name: 'Send code' }).click()
    await page.getByText('Verification code sent, please check your inbox').waitFor()
    await emailDialog.getByRole('button', { name: /Resend in \d+ s/ }).waitFor()
    await expect.poll(() => idp.smtp.to(address).length).toBeGreaterThan(0)
    const code = /verification code is: (\S+)/.exec(idp.smtp.to(address).at(-1)!.text)?.[1]
    expect(code).toBeTruthy()
    await emailDialog.locator('input[name="code"]').fill('WRONG1')
    await emailDialog.getByRole('button', { name: 'Bind email' }).click()
    await emailDialog.getByText('is invalid or expired').waitFor()
    await emailDialog.locator('input[name="code"]').fill(code!)
    await emailDialog.getByRole('button', { name: 'Bind email' }).click()
    await page.getByText('Email bound').first().waitFor()
    await page.locator('[data-testid="binding-email"][data-bound="true"]').getByText(address).waitFor()
    await context.close()

    for (const variant of THEMES) {
      const opened = await themedPage(suite.browser, suite.server.url, variant)
      await signIn(opened.page, member)
      await opened.page.goto('/panel/profile')
      await opened.page.locator('[data-testid="binding-wechat"][data-bound="true"]').waitFor()
      await expectNoOverflow(opened.page)
      await shot(opened.page, `identity-profile-bindings-${variant.name}`)
      if (variant.name !== 'dark') {
        await opened.page.getByTestId('change-email').click()
        await opened.page.getByTestId('email-bind-dialog').locator('input[name="email"]').waitFor()
        await shot(opened.page, `identity-email-dialog-${variant.name}`)
      }
      await opened.context.close()
    }
  })
})
