/**
 * Test-only local SMTP server (Node, npm `smtp-server`): accepts mail on 127.0.0.1 with AUTH
 * PLAIN/LOGIN over plain TCP (STARTTLS not offered), checks the credentials, and keeps every
 * delivered message decoded (recipients, subject, text and HTML parts) so tests can read the
 * verification code or reset link. Optionally serves the mailbox over HTTP
 * (`GET /messages?to=addr`) for the worker tests that run inside workerd.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface CapturedMail {
  from: string
  /** The From header (display name and address). */
  fromHeader: string
  to: string[]
  user: string
  subject: string
  text: string
  html: string
}

export interface SmtpCapture {
  port: number
  messages: CapturedMail[]
  /** Messages delivered to `address` (case-insensitive). */
  to(address: string): CapturedMail[]
  /** http://127.0.0.1:port of the mailbox server (only when started with `http: true`). */
  mailboxUrl?: string
  stop(): Promise<void>
}

function decodeQuotedPrintable(body: string): string {
  const bytes: number[] = []
  const soft = body.replace(/=\r?\n/g, '')
  for (let i = 0; i < soft.length; i++) {
    const ch = soft[i]!
    if (ch === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16))
      i += 2
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'))
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

function decodeHeaderWord(value: string): string {
  return value.replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_, q: string) => decodeQuotedPrintable(q.replace(/_/g, ' ')))
}

/** Pull subject and the text/plain and text/html parts out of a MIME message (as worker-mailer writes it). */
export function decodeMail(raw: string): { subject: string; fromHeader: string; text: string; html: string } {
  const unfolded = raw.replace(/\r\n[ \t]+/g, ' ')
  const header = (name: string) => decodeHeaderWord(new RegExp(`^${name}: (.*)$`, 'im').exec(unfolded)?.[1]?.trim() ?? '')
  const subject = header('Subject')
  const fromHeader = header('From')
  const part = (type: string) => {
    const match = new RegExp(`Content-Type: ${type}[^\\r\\n]*\\r?\\n((?:[^\\r\\n]+\\r?\\n)*)\\r?\\n([\\s\\S]*?)\\r?\\n--`, 'i').exec(raw)
    if (!match) return ''
    const body = match[2]!
    return /quoted-printable/i.test(match[1]!) ? decodeQuotedPrintable(body) : body
  }
  return { subject, fromHeader, text: part('text/plain'), html: part('text/html') }
}

export async function startSmtpCapture(opts: { username: string; password: string; http?: boolean }): Promise<SmtpCapture> {
  const messages: CapturedMail[] = []
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === opts.username && auth.password === opts.password) return callback(null, { user: auth.username })
      return callback(new Error('Invalid username or password'))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const decoded = decodeMail(Buffer.concat(chunks).toString('utf8'))
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          user: String(session.user ?? ''),
          ...decoded,
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  const to = (address: string) => messages.filter((m) => m.to.includes(address.toLowerCase()))

  let mailbox: http.Server | undefined
  let mailboxUrl: string | undefined
  if (opts.http) {
    mailbox = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const address = url.searchParams.get('to') ?? ''
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(address ? to(address) : messages))
    })
    await new Promise<void>((resolve) => mailbox!.listen(0, '127.0.0.1', resolve))
    mailboxUrl = `http://127.0.0.1:${(mailbox.address() as AddressInfo).port}`
  }

  return {
    port,
    messages,
    to,
    mailboxUrl,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      if (mailbox) await new Promise<void>((resolve) => mailbox!.close(() => resolve()))
    },
  }
}
