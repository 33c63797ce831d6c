/**
 * Copy to clipboard: success toast 'copied successfully'; when the browser refuses, the
 * text is handed to the manual-copy dialog (components/copy-fallback-dialog.tsx) instead.
 */
import i18n from '@/i18n'
import { notify } from './notify'

type Listener = () => void
let manualText: string | null = null
const listeners = new Set<Listener>()

export const manualCopy = {
  get: () => manualText,
  set(text: string | null) {
    manualText = text
    listeners.forEach((l) => l())
  },
  subscribe(listener: Listener) {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('Clipboard API unavailable')
    await navigator.clipboard.writeText(text)
    notify.success(i18n.t('common:copy.success'))
    return true
  } catch {
    manualCopy.set(text)
    return false
  }
}
