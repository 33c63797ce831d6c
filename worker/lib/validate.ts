/**
 * Route-edge validation. `validate(target, schema)` wraps @hono/zod-validator so that a failure
 * becomes `ApiError(400)` with one message per field (`data.fields`), rendered by the error handler
 * in the envelope of the surface (management or relay). The returned middleware carries its
 * (target, schema) under `VALIDATED` so the OpenAPI generator (admin/openapi) can read the route table.
 * `accepting<Body>()(schema)` ties a schema to the request body type the console sends
 * (shared/contract/) at compile time.
 */
import { zValidator } from '@hono/zod-validator'
import type { ValidationTargets } from 'hono'
import { z } from 'zod'
import { ApiError } from './errors'

export function fieldMessages(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const issue of error.issues) {
    const path = issue.path.join('.') || '_'
    if (!(path in fields)) fields[path] = issue.message
  }
  return fields
}

export function validationError(error: z.ZodError): ApiError {
  const fields = fieldMessages(error)
  const message = Object.entries(fields)
    .map(([k, v]) => (k === '_' ? v : `${k}: ${v}`))
    .join('; ')
  return new ApiError(400, message || 'Invalid input', { data: { fields }, param: Object.keys(fields)[0] })
}

/** Marker on a `validate()` middleware: which part of the request it checks, with which schema. */
export const VALIDATED = Symbol('validated')
export interface ValidatedInput {
  target: keyof ValidationTargets
  schema: z.ZodType
}

export function validate<T extends keyof ValidationTargets, S extends z.ZodType>(target: T, schema: S) {
  const mw = zValidator(target, schema, (result) => {
    if (!result.success) throw validationError(result.error as unknown as z.ZodError)
  })
  Object.defineProperty(mw, VALIDATED, { value: { target, schema } satisfies ValidatedInput })
  return mw
}

/**
 * `accepting<Body>()(schema)` returns `schema` unchanged; it fails to type-check unless every `Body`
 * (the contract's request type, what the console sends) is an input the schema accepts.
 */
export const accepting =
  <Body>() =>
  <S extends z.ZodType>(schema: S, ..._contract: [Body] extends [z.input<S>] ? [] : [bodyNotAccepted: never]): S =>
    schema

export const idParam = z.object({ id: z.coerce.number().int().positive('must be a positive integer') })
