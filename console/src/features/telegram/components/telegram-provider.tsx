/** Which dialog of the Telegram page is open: create or edit a menu, or confirm its deletion. */
import { createDialogController } from '@/lib/dialog-controller'
import type { TelegramMenu } from '../api'

export type TelegramDialog = { kind: 'create' } | { kind: 'edit'; row: TelegramMenu } | { kind: 'delete'; row: TelegramMenu }

const controller = createDialogController<TelegramDialog>('Telegram')
export const TelegramProvider = controller.Provider
export const useTelegramDialog = controller.useDialog
