/**
 * Vitest globalSetup of the worker project: one local SMTP server for the whole run, so worker
 * tests deliver real mail over `connect()` from workerd. Tests read it through
 * `inject('smtpPort')` and the HTTP mailbox at `inject('mailboxUrl')`.
 */
import type { TestProject } from 'vitest/node'
import { startSmtpCapture } from './smtp-capture'
import { TEST_SMTP_PASSWORD, TEST_SMTP_USER } from './test-smtp'

declare module 'vitest' {
  export interface ProvidedContext {
    smtpPort: number
    mailboxUrl: string
  }
}

export default async function setup(project: TestProject) {
  const capture = await startSmtpCapture({ username: TEST_SMTP_USER, password: TEST_SMTP_PASSWORD, http: true })
  project.provide('smtpPort', capture.port)
  project.provide('mailboxUrl', capture.mailboxUrl!)
  return () => capture.stop()
}
