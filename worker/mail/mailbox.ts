/**
 * The mailbox behind an email address, for "has this address been used before?": lower case, the
 * `+tag` of the local part dropped, and for Gmail (gmail.com, googlemail.com) the dots of the local
 * part dropped and the domain spelled gmail.com, since all those spellings deliver to one inbox.
 * Used to pay sign-up rewards once per mailbox (billing/signup-rewards.ts); migration 0015 fills
 * its table with the same rule in SQL.
 */

const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com'])

export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase()
  const at = address.indexOf('@')
  if (at <= 0) return address
  let local = address.slice(0, at)
  let domain = address.slice(at + 1)
  const plus = local.indexOf('+')
  if (plus > 0) local = local.slice(0, plus)
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '')
    domain = 'gmail.com'
  }
  return `${local}@${domain}`
}
