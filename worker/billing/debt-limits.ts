/**
 * The user's debt bounds from the settings — MaxUserOpenRequests and MaxUserOverrun — sent with
 * every hold and settle of the relay, realtime sessions and task submits, so one wallet rule
 * (worker/wallet/wallet-debt.ts) bounds what a misbehaving supplier can make a user owe.
 */
import type { DebtLimits } from '../wallet/wallet-types'
import type { Settings } from '../settings/store'

export const debtLimits = (settings: Settings): DebtLimits => ({ maxOpen: settings.int('MaxUserOpenRequests'), maxOverrun: settings.int('MaxUserOverrun') })
