/**
 * Worker-test helpers for the local SMTP server started by smtp-global-setup.ts: point the
 * gateway's SMTP settings at it and read the mail delivered to an address.
 */
import { inject } from 'vitest'
import type { TestClient } from './client'
import type { CapturedMail } from './smtp-capture'

export const TEST_SMTP_USER = 'mailer@gateway.test'
export const TEST_SMTP_PASSWORD = 'smtp-password-1'

/** SMTP settings pointing at the local server (saved by root). */
export function testSmtpOptions(overrides: Record<string, string> = {}) {
  return {
    SMTPServer: '127.0.0.1',
    SMTPPort: String(inject('smtpPort')),
    SMTPAccount: TEST_SMTP_USER,
    SMTPToken: TEST_SMTP_PASSWORD,
    SMTPFrom: 'noreply@gateway.test',
    ...overrides,
  }
}

export async function configureTestSmtp(root: TestClient, overrides: Record<string, string> = {}) {
  const res = await root.put('/api/option/', { options: testSmtpOptions(overrides) })
  if (res.status !== 200) throw new Error(`saving SMTP options failed: ${res.status} ${res.body.message}`)
}

/** Every message the local server received for `address`. */
export async function mailsTo(address: string): Promise<CapturedMail[]> {
  const res = await fetch(`${inject('mailboxUrl')}/messages?to=${encodeURIComponent(address)}`)
  return (await res.json()) as CapturedMail[]
}

/** A recipient address unique to this test run (the SMTP server is shared by all test files). */
export const uniqueEmail = (name: string) => `${name}.${crypto.randomUUID().slice(0, 8)}@example.com`
