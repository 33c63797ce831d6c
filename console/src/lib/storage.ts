/**
 * The browser storage keys of the console and safe JSON accessors: private mode or
 * a full quota must never break rendering.
 */
export const STORAGE_KEYS = {
  siteInfo: 'siteInfo',
  quotaPerUnit: 'quota_per_unit',
  displayInCurrency: 'display_in_currency',
  user: 'user',
  theme: 'theme',
  language: 'appLanguage',
  notice: 'notice',
} as const

export function readString(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

export function writeString(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key)
    else localStorage.setItem(key, value)
  } catch {
    // storage unavailable: the in-memory state still works for this page
  }
}

export function readJson<T>(key: string): T | null {
  const raw = readString(key)
  if (!raw) return null
  try {
    return JSON.parse(raw) as T
  } catch {
    return null
  }
}

export function writeJson(key: string, value: unknown): void {
  writeString(key, value === null || value === undefined ? null : JSON.stringify(value))
}
