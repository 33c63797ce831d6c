/** Which dialog of the plan admin page is open: create or edit a plan, confirm its deletion, or grant one to a user. */
import { createDialogController } from '@/lib/dialog-controller'
import type { Plan } from '../api'

export type PlansDialog = { kind: 'create' } | { kind: 'edit'; plan: Plan } | { kind: 'delete'; plan: Plan } | { kind: 'grant'; plan?: Plan }

const controller = createDialogController<PlansDialog>('Plans')
export const PlansProvider = controller.Provider
export const usePlansDialog = controller.useDialog
