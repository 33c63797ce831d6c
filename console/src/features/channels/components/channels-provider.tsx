/**
 * Which dialog of the channels page is open and for what (a row or the selected ids). Row
 * actions, bulk actions and header buttons call `open(dialog)`; channels-dialogs.tsx mounts the
 * dialogs and calls `close()`. The last dialog stays mounted while it animates out; `seq` changes
 * on every open so forms start fresh. `selectionSeq` changes after a bulk action so the table
 * clears its selection.
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react'
import type { ChannelFormValues } from '../schema'
import type { Channel } from '@contract/channels'

export type ChannelsDialog =
  | { kind: 'create'; preset?: Partial<ChannelFormValues> }
  | { kind: 'edit'; row: Channel }
  | { kind: 'delete'; row: Channel }
  | { kind: 'test'; row: Channel }
  | { kind: 'deleteDisabled' }
  | { kind: 'batchDelete'; ids: number[] }
  | { kind: 'delModel'; ids: number[] }
  | { kind: 'azure'; ids: number[] }

interface DialogState {
  dialog: ChannelsDialog | null
  isOpen: boolean
  seq: number
  selectionSeq: number
}

interface ChannelsContextValue extends DialogState {
  open: (dialog: ChannelsDialog) => void
  close: () => void
  /** A bulk action finished: the table forgets its selection. */
  clearSelection: () => void
}

const ChannelsContext = createContext<ChannelsContextValue | null>(null)

export function ChannelsProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<DialogState>({ dialog: null, isOpen: false, seq: 0, selectionSeq: 0 })
  const value = useMemo(
    () => ({
      ...state,
      open: (dialog: ChannelsDialog) => setState((s) => ({ ...s, dialog, isOpen: true, seq: s.seq + 1 })),
      close: () => setState((s) => ({ ...s, isOpen: false })),
      clearSelection: () => setState((s) => ({ ...s, selectionSeq: s.selectionSeq + 1 })),
    }),
    [state]
  )
  return <ChannelsContext.Provider value={value}>{children}</ChannelsContext.Provider>
}

export function useChannelsDialog(): ChannelsContextValue {
  const ctx = useContext(ChannelsContext)
  if (!ctx) throw new Error('useChannelsDialog must be used inside ChannelsProvider')
  return ctx
}
