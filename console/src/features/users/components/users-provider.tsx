/**
 * Which dialog of the users page is open and for which row. Row actions and header buttons call
 * `open(dialog)`; users-dialogs.tsx mounts the dialogs and calls `close()`. The last dialog stays
 * mounted while it animates out; `seq` changes on every open so forms start fresh.
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react'
import type { AdminUser, ManageAction } from '../api'

export type UsersDialog =
  | { kind: 'create' }
  | { kind: 'edit'; row: AdminUser }
  | { kind: 'quota'; row: AdminUser }
  | { kind: 'manage'; row: AdminUser; action: ManageAction }

interface UsersDialogState {
  dialog: UsersDialog | null
  isOpen: boolean
  seq: number
}

interface UsersContextValue extends UsersDialogState {
  open: (dialog: UsersDialog) => void
  close: () => void
}

const UsersContext = createContext<UsersContextValue | null>(null)

export function UsersProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<UsersDialogState>({ dialog: null, isOpen: false, seq: 0 })
  const value = useMemo(
    () => ({
      ...state,
      open: (dialog: UsersDialog) => setState((s) => ({ dialog, isOpen: true, seq: s.seq + 1 })),
      close: () => setState((s) => ({ ...s, isOpen: false })),
    }),
    [state]
  )
  return <UsersContext.Provider value={value}>{children}</UsersContext.Provider>
}

export function useUsersDialog(): UsersContextValue {
  const ctx = useContext(UsersContext)
  if (!ctx) throw new Error('useUsersDialog must be used inside UsersProvider')
  return ctx
}
