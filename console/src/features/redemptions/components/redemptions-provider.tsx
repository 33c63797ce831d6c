/**
 * Which dialog of the redemption page is open: create, the codes just created (shown once), edit,
 * or the confirmation of disable/delete.
 */
import { createDialogController } from '@/lib/dialog-controller'
import type { Redemption } from '../api'

export type RedemptionsDialog =
  | { kind: 'create' }
  | { kind: 'keys'; keys: string[]; name: string }
  | { kind: 'edit'; row: Redemption }
  | { kind: 'disable'; row: Redemption }
  | { kind: 'delete'; row: Redemption }

const controller = createDialogController<RedemptionsDialog>('Redemptions')
export const RedemptionsProvider = controller.Provider
export const useRedemptionsDialog = controller.useDialog
