/**
 * Which dialog of the pricing page is open and for what (a price, a merged group, a user group,
 * models to delete). Row actions and header buttons call `open(...)`; pricing-dialogs.tsx mounts
 * the dialogs.
 */
import { createDialogController } from '@/lib/dialog-controller'
import type { UserGroup } from '@contract/groups'
import type { Price } from '../api'
import type { PriceGroup } from '../price-groups'

export type PricingDialog =
  | { kind: 'price'; price?: Price; model?: string }
  | { kind: 'delete-prices'; models: string[]; onDeleted?: () => void }
  | { kind: 'merged'; group: PriceGroup }
  | { kind: 'updates' }
  | { kind: 'group'; group?: UserGroup }
  | { kind: 'delete-group'; group: UserGroup }

const controller = createDialogController<PricingDialog>('Pricing')
export const PricingProvider = controller.Provider
export const usePricing = controller.useDialog
