/**
 * Every payment gateway type, by its one-hub id. A new gateway is one folder implementing
 * `Gateway` (types.ts) plus one line here; routes, orders and the console read this table.
 */
import type { Gateway } from './types'
import { alipay } from './alipay'
import { epay } from './epay'
import { stripe } from './stripe'
import { wxpay } from './wxpay'
import type { GatewayType } from '../../../shared/contract/payments'

export const GATEWAYS: Record<GatewayType, Gateway<any>> = { stripe, alipay, wxpay, epay }

export const isGatewayType = (t: string): t is GatewayType => Object.hasOwn(GATEWAYS, t)

export function gatewayOf(type: string): Gateway<any> | undefined {
  return isGatewayType(type) ? GATEWAYS[type] : undefined
}
