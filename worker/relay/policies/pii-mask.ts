/**
 * Personal-data masking of prompt text (`PiiMaskingEnabled`): e-mail addresses, phone numbers
 * (mainland China mobile, E.164), mainland China resident ID numbers (with their ISO 7064
 * MOD 11-2 check character), bank card numbers (13–19 digits passing the Luhn check) and IPv4
 * addresses become `[email]`, `[phone]`, `[id_card]`, `[bank_card]`, `[ipv4]`. Pure; callers get
 * counts per kind for the log metadata, never the values.
 *
 * Every pattern has bounded repetition and a look-behind at its start, so a long run of letters
 * or digits costs linear time. Passes run in a fixed order (the ID before bank cards, cards before
 * phones) and placeholders hold no digits, so a later pass never re-reads an earlier one's output.
 */

type PiiKind = 'email' | 'phone' | 'id_card' | 'bank_card' | 'ipv4'
export type PiiCounts = Partial<Record<PiiKind, number>>

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
const ID_CHECK = '10X98765432'

/** Whether an 18-character mainland China resident ID has a plausible birth date and the right check character. */
export function isResidentId(id: string): boolean {
  if (!/^\d{17}[\dXx]$/.test(id)) return false
  const month = Number(id.slice(10, 12))
  const day = Number(id.slice(12, 14))
  const year = Number(id.slice(6, 10))
  if (year < 1900 || year > 2100 || month < 1 || month > 12 || day < 1 || day > 31) return false
  let sum = 0
  for (let i = 0; i < 17; i++) sum += (id.charCodeAt(i) - 48) * ID_WEIGHTS[i]!
  return ID_CHECK[sum % 11] === id[17]!.toUpperCase()
}

/** The Luhn check of a string of digits. */
export function passesLuhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)'

interface Pass {
  kind: PiiKind
  pattern: RegExp
  /** A cheap test that the text may hold the kind at all. */
  hint: RegExp
  /** Extra check of a match (checksums). */
  accept?: (match: string) => boolean
}

/** After an `@`: the domain of an address. The local part is read backwards from the `@` (maskEmails). */
const EMAIL_DOMAIN = /@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}(?![\w-])/g
const isLocalChar = (c: number) =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2e || c === 0x25 || c === 0x2b || c === 0x2d

/**
 * E-mail addresses: a local part of 1–64 of `A-Z a-z 0-9 _ . % + -` (not inside a longer run), `@`,
 * a dotted domain. Searching from each `@` keeps the cost to the text's `@`s, not its words.
 */
function maskEmails(text: string, counts: PiiCounts): string {
  if (!text.includes('@')) return text
  let out = ''
  let copied = 0
  EMAIL_DOMAIN.lastIndex = 0
  for (let m = EMAIL_DOMAIN.exec(text); m; m = EMAIL_DOMAIN.exec(text)) {
    let start = m.index
    while (start > copied && m.index - start < 65 && isLocalChar(text.charCodeAt(start - 1))) start--
    const local = m.index - start
    if (local === 0 || local > 64 || (start > 0 && isLocalChar(text.charCodeAt(start - 1)))) continue
    out += `${text.slice(copied, start)}[email]`
    copied = m.index + m[0].length
    counts.email = (counts.email ?? 0) + 1
  }
  return copied === 0 ? text : out + text.slice(copied)
}

const PASSES: Pass[] = [
  { kind: 'id_card', pattern: /(?<![\dA-Za-z])\d{17}[\dXx](?![\dA-Za-z])/g, hint: /\d/, accept: isResidentId },
  {
    kind: 'bank_card',
    // Card schemes start 2–6 (Mastercard 2-series, Amex 3, Visa 4, Mastercard 5, UnionPay/Discover 6); groups may be spaced.
    pattern: /(?<![\d+])[2-6](?:[ -]?\d){12,18}(?![\d])/g,
    hint: /\d/,
    accept: (m) => {
      const digits = m.replace(/[ -]/g, '')
      return digits.length >= 13 && digits.length <= 19 && passesLuhn(digits)
    },
  },
  { kind: 'phone', pattern: /(?<![\w+])(?:\+?86[ -]?)?1[3-9]\d{9}(?!\d)/g, hint: /1[3-9]\d/ },
  { kind: 'phone', pattern: /(?<![\w+])\+[1-9](?:[ -]?\d){6,14}(?![\d])/g, hint: /\+/ },
  { kind: 'ipv4', pattern: new RegExp(`(?<![\\d.])${OCTET}(?:\\.${OCTET}){3}(?!\\.?\\d)`, 'g'), hint: /\d\.\d/ },
]

/** `text` with its personal data replaced by placeholders; `counts` gains one per replaced value. */
export function maskPii(text: string, counts: PiiCounts): string {
  if (text.length < 7) return text
  let out = maskEmails(text, counts)
  for (const pass of PASSES) {
    if (!pass.hint.test(out)) continue
    out = out.replace(pass.pattern, (match) => {
      if (pass.accept && !pass.accept(match)) return match
      counts[pass.kind] = (counts[pass.kind] ?? 0) + 1
      return `[${pass.kind}]`
    })
  }
  return out
}
