/**
 * Which dialog of the redemption page is open: create, the codes just created (shown once), edit,
 * or the confirmation of disable/delete. The last dialog stays mounted while it animates out;
 * `seq` changes on every open so forms start fresh.
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react'
import type { Redemption } from '../api'

export type RedemptionsDialog =
  | { kind: 'create' }
  | { kind: 'keys'; keys: string[]; name: string }
  | { kind: 'edit'; row: Redemption }
  | { kind: 'disable'; row: Redemption }
  | { kind: 'delete'; row: Redemption }

interface DialogState {
  dialog: RedemptionsDialog | null
  isOpen: boolean
  seq: number
}

interface RedemptionsContextValue extends DialogState {
  open: (dialog: RedemptionsDialog) => void
  close: () => void
}

const RedemptionsContext = createContext<RedemptionsContextValue | null>(null)

export function RedemptionsProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<DialogState>({ dialog: null, isOpen: false, seq: 0 })
  const value = useMemo(
    () => ({
      ...state,
      open: (dialog: RedemptionsDialog) => setState((s) => ({ dialog, isOpen: true, seq: s.seq + 1 })),
      close: () => setState((s) => ({ ...s, isOpen: false })),
    }),
    [state]
  )
  return <RedemptionsContext.Provider value={value}>{children}</RedemptionsContext.Provider>
}

export function useRedemptionsDialog(): RedemptionsContextValue {
  const ctx = useContext(RedemptionsContext)
  if (!ctx) throw new Error('useRedemptionsDialog must be used inside RedemptionsProvider')
  return ctx
}
