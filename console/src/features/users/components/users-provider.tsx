/** Which dialog of the users page is open and for which row (subscriptions: the user's plans). */
import { createDialogController } from '@/lib/dialog-controller'
import type { AdminUser, ManageAction } from '@contract/users'

export type UsersDialog =
  | { kind: 'create' }
  | { kind: 'edit'; row: AdminUser }
  | { kind: 'quota'; row: AdminUser }
  | { kind: 'subscriptions'; row: AdminUser }
  | { kind: 'manage'; row: AdminUser; action: ManageAction }

const controller = createDialogController<UsersDialog>('Users')
export const UsersProvider = controller.Provider
export const useUsersDialog = controller.useDialog
