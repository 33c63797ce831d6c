/**
 * Which dialog of the Telegram page is open: create or edit a menu, or confirm its deletion. The
 * last dialog stays mounted while it animates out; `seq` changes on every open so forms start fresh.
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react'
import type { TelegramMenu } from '../api'

export type TelegramDialog = { kind: 'create' } | { kind: 'edit'; row: TelegramMenu } | { kind: 'delete'; row: TelegramMenu }

interface DialogState {
  dialog: TelegramDialog | null
  isOpen: boolean
  seq: number
}

interface TelegramContextValue extends DialogState {
  open: (dialog: TelegramDialog) => void
  close: () => void
}

const TelegramContext = createContext<TelegramContextValue | null>(null)

export function TelegramProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<DialogState>({ dialog: null, isOpen: false, seq: 0 })
  const value = useMemo(
    () => ({
      ...state,
      open: (dialog: TelegramDialog) => setState((s) => ({ dialog, isOpen: true, seq: s.seq + 1 })),
      close: () => setState((s) => ({ ...s, isOpen: false })),
    }),
    [state]
  )
  return <TelegramContext.Provider value={value}>{children}</TelegramContext.Provider>
}

export function useTelegramDialog(): TelegramContextValue {
  const ctx = useContext(TelegramContext)
  if (!ctx) throw new Error('useTelegramDialog must be used inside TelegramProvider')
  return ctx
}
