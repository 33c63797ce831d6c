/** One mailbox, many spellings: case, `+tag` and Gmail's dots and googlemail.com (security finding 7). */
import { describe, expect, it } from 'vitest'
import { mailboxOf } from './mailbox'

describe('mailboxOf', () => {
  it('lower-cases and drops the +tag of the local part', () => {
    expect(mailboxOf(' Farmer+1@Example.COM ')).toBe('farmer@example.com')
    expect(mailboxOf('farmer+a+b@example.com')).toBe('farmer@example.com')
    // Dots count outside Gmail.
    expect(mailboxOf('far.mer@example.com')).toBe('far.mer@example.com')
    // A local part that is only a tag stays as it is.
    expect(mailboxOf('+tag@example.com')).toBe('+tag@example.com')
  })

  it('drops the dots of Gmail addresses and spells googlemail.com as gmail.com', () => {
    expect(mailboxOf('F.a.r.m.e.r+x@googlemail.com')).toBe('farmer@gmail.com')
    expect(mailboxOf('far.mer@gmail.com')).toBe('farmer@gmail.com')
    expect(mailboxOf('farmer@gmail.com.evil.test')).toBe('farmer@gmail.com.evil.test')
  })

  it('leaves what is not an address alone', () => {
    expect(mailboxOf('no-at-sign')).toBe('no-at-sign')
    expect(mailboxOf('@example.com')).toBe('@example.com')
  })
})
