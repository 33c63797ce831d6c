/**
 * Lets Node import worker modules for the micro-benchmarks (scripts/bench-stream-pass.ts): the
 * `cloudflare:*` modules some of them import resolve to inert stand-ins (nothing the measured code calls).
 */
import { register } from 'node:module'

const stub = 'export const env = {}; export const withEnv = (_e, f) => f(); export class DurableObject {}; export const connect = () => { throw new Error("no sockets in Node") }'
const hooks = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith('cloudflare:')) return { url: 'data:text/javascript,' + encodeURIComponent(${JSON.stringify(stub)}), shortCircuit: true }
  return next(specifier, context)
}`
register(`data:text/javascript,${encodeURIComponent(hooks)}`)
