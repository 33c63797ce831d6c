/** Each personal-data pattern with valid and invalid values and checksums, and the counts it reports. */
import { describe, expect, it } from 'vitest'
import { isResidentId, maskPii, passesLuhn, type PiiCounts } from './pii-mask'

const mask = (text: string) => {
  const counts: PiiCounts = {}
  return { text: maskPii(text, counts), counts }
}

describe('maskPii', () => {
  it('masks e-mail addresses', () => {
    expect(mask('write to zhang.san+ai@mail.example.com.cn today')).toEqual({ text: 'write to [email] today', counts: { email: 1 } })
    expect(mask('no address @ here, nor foo@bar').counts).toEqual({})
  })

  it('masks mainland China mobiles and E.164 numbers, not other digit runs', () => {
    expect(mask('call 13812345678, +86 139-0000-0000 or +8613912345678').text).toBe('call [phone], [phone] or [phone]')
    expect(mask('US: +1 415 555 2671, UK: +442079460958').text).toBe('US: [phone], UK: [phone]')
    expect(mask('order 12812345678 and 138123456789 stay').counts).toEqual({})
  })

  it('masks a resident ID only with a valid birth date and MOD 11-2 check character', () => {
    expect(isResidentId('11010519491231002X')).toBe(true)
    expect(isResidentId('110105194912310021')).toBe(false)
    expect(isResidentId('440524188001010014')).toBe(false)
    expect(isResidentId('11010519491331002X')).toBe(false)
    expect(mask('ID 11010519491231002x here')).toEqual({ text: 'ID [id_card] here', counts: { id_card: 1 } })
    expect(mask('ID 110105194912310021 here').counts.id_card).toBeUndefined()
  })

  it('masks bank card numbers of 13–19 digits that pass the Luhn check, spaced or not', () => {
    expect(passesLuhn('4111111111111111')).toBe(true)
    expect(passesLuhn('4111111111111112')).toBe(false)
    expect(mask('card 4111 1111 1111 1111 and 6222021234567890128')).toEqual({ text: 'card [bank_card] and [bank_card]', counts: { bank_card: 2 } })
    expect(mask('UnionPay 6221-5588-1234-0005 ok').text).toBe('UnionPay [bank_card] ok')
    expect(mask('UnionPay 6221558812340006 fails Luhn').counts).toEqual({})
    expect(mask('bad 4111111111111112 and ms time 1733130000000').counts).toEqual({})
    expect(mask('Amex 378282246310005, too long 41111111111111111111').text).toBe('Amex [bank_card], too long 41111111111111111111')
  })

  it('masks IPv4 addresses with valid octets only', () => {
    expect(mask('from 192.168.1.100 and 10.0.0.1.')).toEqual({ text: 'from [ipv4] and [ipv4].', counts: { ipv4: 2 } })
    expect(mask('version 1.2.3.4.5 and 256.1.1.1 and 1.2.3').counts).toEqual({})
  })

  it('counts every kind in one text and leaves short or clean texts untouched', () => {
    const { text, counts } = mask('a@b.cn 13912345678 8.8.8.8 4111111111111111 11010519491231002X')
    expect(text).toBe('[email] [phone] [ipv4] [bank_card] [id_card]')
    expect(counts).toEqual({ email: 1, phone: 1, ipv4: 1, bank_card: 1, id_card: 1 })
    expect(mask('hello').text).toBe('hello')
  })

  it('stays linear on long runs of letters and digits (no catastrophic backtracking)', () => {
    const letters = `${'a'.repeat(50_000)}@${'1'.repeat(50_000)}`
    expect(mask(letters)).toEqual({ text: letters, counts: {} })
    const digits = '9'.repeat(100_000)
    expect(mask(digits)).toEqual({ text: digits, counts: {} })
  })
})
