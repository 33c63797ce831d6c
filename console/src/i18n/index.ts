/**
 * i18next set-up: zh_CN default and fallback, en_US, ja_JP. Each language/namespace JSON is
 * its own lazy chunk (i18next-resources-to-backend). Detection order: ?lng, cookie, localStorage
 * `appLanguage`, sessionStorage, navigator, <html lang>; browser codes such as 'en-US' or 'zh-TW'
 * are mapped to the supported ones. The choice is saved in localStorage `appLanguage` and mirrored
 * in <html lang>.
 */
import i18n from 'i18next'
import LanguageDetector from 'i18next-browser-languagedetector'
import resourcesToBackend from 'i18next-resources-to-backend'
import { initReactI18next } from 'react-i18next'
import { STORAGE_KEYS } from '@/lib/storage'

export const LANGUAGES = [
  { code: 'zh_CN', label: '简体中文' },
  { code: 'en_US', label: 'English' },
  { code: 'ja_JP', label: '日本語' },
] as const

export type LanguageCode = (typeof LANGUAGES)[number]['code']
export const DEFAULT_LANGUAGE: LanguageCode = 'zh_CN'

/** Maps a detected browser/query code onto a supported language ('en', 'en-US' → en_US, 'zh*' → zh_CN, 'ja*' → ja_JP). */
export function normalizeLanguage(code: string): string {
  const lower = code.toLowerCase().replace('_', '-')
  if (lower === 'en' || lower.startsWith('en-')) return 'en_US'
  if (lower.startsWith('zh')) return 'zh_CN'
  if (lower.startsWith('ja')) return 'ja_JP'
  return code
}

const locales = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json')

i18n
  .use(
    resourcesToBackend(async (language: string, namespace: string) => {
      const load = locales[`./locales/${language}/${namespace}.json`]
      if (!load) throw new Error(`No translations for ${language}/${namespace}`)
      return (await load()).default
    })
  )
  .use(LanguageDetector)
  .use(initReactI18next)

i18n.on('languageChanged', (lng) => {
  document.documentElement.lang = lng.replace('_', '-')
})

export const i18nReady = i18n.init({
  supportedLngs: LANGUAGES.map((l) => l.code),
  fallbackLng: DEFAULT_LANGUAGE,
  load: 'currentOnly',
  ns: ['common', 'nav'],
  defaultNS: 'common',
  detection: {
    order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
    lookupQuerystring: 'lng',
    lookupCookie: STORAGE_KEYS.language,
    lookupLocalStorage: STORAGE_KEYS.language,
    lookupSessionStorage: STORAGE_KEYS.language,
    caches: ['localStorage'],
    convertDetectedLanguage: normalizeLanguage,
  },
  interpolation: { escapeValue: false },
  react: { useSuspense: true },
})

/** Loads every namespace already in use for the new language first, so switching never flashes. */
export async function changeLanguage(code: LanguageCode) {
  await i18n.loadLanguages(code)
  await i18n.changeLanguage(code)
}

export default i18n

/** Route loaders call this so a page's translations arrive with its chunk (no suspense flash). */
export async function loadNamespaces(...namespaces: string[]) {
  await i18nReady
  await i18n.loadNamespaces(namespaces)
  return null
}
