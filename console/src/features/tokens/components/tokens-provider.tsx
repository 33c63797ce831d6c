/**
 * Which dialog of the tokens page is open and for which row: create, edit, delete, and the
 * "your new key" dialog after creating. Row actions and the header button call `open(dialog)`;
 * tokens-dialogs.tsx mounts them. `seq` changes on every open so forms start fresh. `admin` says
 * whether the page is in the admins' all-users mode (edits and deletes then go through
 * /api/token/admin).
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react'
import type { Token } from '../api'

export type TokensDialog = { kind: 'create' } | { kind: 'edit'; row: Token } | { kind: 'delete'; row: Token } | { kind: 'created'; row: Token }

interface DialogState {
  dialog: TokensDialog | null
  isOpen: boolean
  seq: number
}

interface TokensContextValue extends DialogState {
  admin: boolean
  open: (dialog: TokensDialog) => void
  close: () => void
}

const TokensContext = createContext<TokensContextValue | null>(null)

export function TokensProvider({ admin, children }: { admin: boolean; children: ReactNode }) {
  const [state, setState] = useState<DialogState>({ dialog: null, isOpen: false, seq: 0 })
  const value = useMemo(
    () => ({
      ...state,
      admin,
      open: (dialog: TokensDialog) => setState((s) => ({ dialog, isOpen: true, seq: s.seq + 1 })),
      close: () => setState((s) => ({ ...s, isOpen: false })),
    }),
    [state, admin]
  )
  return <TokensContext.Provider value={value}>{children}</TokensContext.Provider>
}

export function useTokensDialog(): TokensContextValue {
  const ctx = useContext(TokensContext)
  if (!ctx) throw new Error('useTokensDialog must be used inside TokensProvider')
  return ctx
}
