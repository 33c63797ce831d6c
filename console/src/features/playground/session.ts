/**
 * The playground's memory for this browser tab (sessionStorage `playground`): the conversation
 * and its settings survive a reload or a trip to another page, and are gone with the tab.
 */
import type { ChatMessage } from './use-chat'
import { DEFAULT_SETTINGS, settingsSchema, type PlaygroundSettings } from './schema'

const STORAGE_KEY = 'playground'

interface Saved {
  messages?: ChatMessage[]
  settings?: Partial<PlaygroundSettings>
}

function read(): Saved {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY)
    return raw ? (JSON.parse(raw) as Saved) : {}
  } catch {
    return {}
  }
}

function write(patch: Saved) {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ ...read(), ...patch }))
  } catch {
    // storage full or unavailable: the conversation still lives in memory
  }
}

export function loadMessages(): ChatMessage[] {
  const list = read().messages
  if (!Array.isArray(list)) return []
  // An answer cut short by a reload is kept as stopped.
  return list
    .filter((m) => m && (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string')
    .map((m) => (m.status === 'streaming' ? { ...m, status: 'stopped' as const } : m))
}

export const saveMessages = (messages: ChatMessage[]) => write({ messages })

export function loadSettings(): PlaygroundSettings {
  const parsed = settingsSchema.partial().safeParse(read().settings ?? {})
  return { ...DEFAULT_SETTINGS, ...(parsed.success ? parsed.data : {}) }
}

export const saveSettings = (settings: PlaygroundSettings) => write({ settings })
