/** Which dialog of the alerts page is open: create or edit a channel, its delivery log, or confirm its deletion. */
import { createDialogController } from '@/lib/dialog-controller'
import type { NotifyChannelView } from '../api'

export type NotifyDialog =
  | { kind: 'create' }
  | { kind: 'edit'; row: NotifyChannelView }
  | { kind: 'deliveries'; row: NotifyChannelView }
  | { kind: 'delete'; row: NotifyChannelView }

const controller = createDialogController<NotifyDialog>('Notify')
export const NotifyProvider = controller.Provider
export const useNotifyDialog = controller.useDialog
