/**
 * Which dialog of the pricing page is open and for what (a price, a merged group, a user group,
 * models to delete). Row actions and header buttons call `open(...)`; pricing-dialogs.tsx mounts
 * the dialogs. The last dialog stays rendered while it animates closed; each `open` remounts it so
 * forms start fresh.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react'
import type { Price, UserGroup } from '../api'
import type { PriceGroup } from '../price-groups'

export type PricingDialog =
  | { kind: 'price'; price?: Price; model?: string }
  | { kind: 'delete-prices'; models: string[]; onDeleted?: () => void }
  | { kind: 'merged'; group: PriceGroup }
  | { kind: 'updates' }
  | { kind: 'group'; group?: UserGroup }
  | { kind: 'delete-group'; group: UserGroup }

interface PricingContextValue {
  dialog: PricingDialog | null
  isOpen: boolean
  /** Changes on every `open`, to key the dialog. */
  serial: number
  open: (dialog: PricingDialog) => void
  close: () => void
}

const PricingContext = createContext<PricingContextValue | null>(null)

export function PricingProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<{ dialog: PricingDialog | null; isOpen: boolean; serial: number }>({ dialog: null, isOpen: false, serial: 0 })
  const open = useCallback((dialog: PricingDialog) => setState((s) => ({ dialog, isOpen: true, serial: s.serial + 1 })), [])
  const close = useCallback(() => setState((s) => ({ ...s, isOpen: false })), [])
  const value = useMemo(() => ({ ...state, open, close }), [state, open, close])
  return <PricingContext.Provider value={value}>{children}</PricingContext.Provider>
}

export function usePricing(): PricingContextValue {
  const ctx = useContext(PricingContext)
  if (!ctx) throw new Error('usePricing must be used inside <PricingProvider>')
  return ctx
}
