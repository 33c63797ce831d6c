/**
 * Reads JSON Schema nodes for the reference page: a short type label (`string`, `integer[]`,
 * `"a" | "b"`), the constraints worth showing, and the child fields to render below a node.
 */
import type { JsonSchema } from './api'

const show = (value: unknown) => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value))

const variants = (s: JsonSchema) => s.anyOf ?? s.oneOf ?? []

/** A union with null ("nullable") reads as its other member. */
export function withoutNull(s: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const members = variants(s)
  const rest = members.filter((m) => m.type !== 'null')
  if (members.length > 0 && rest.length === 1 && rest.length < members.length)
    return { schema: { ...rest[0]!, description: s.description ?? rest[0]!.description }, nullable: true }
  return { schema: s, nullable: false }
}

export function typeLabel(input: JsonSchema): string {
  const { schema: s, nullable } = withoutNull(input)
  let label: string
  if (s.const !== undefined) label = show(s.const)
  else if (s.enum) label = s.enum.map(show).join(' | ')
  else if (variants(s).length) label = variants(s).map(typeLabel).join(' | ')
  else if (s.allOf?.length) label = s.allOf.map(typeLabel).join(' & ')
  else if (s.type === 'array') label = `${s.items ? typeLabel(s.items) : 'any'}[]`
  else if (Array.isArray(s.type)) label = s.type.join(' | ')
  else if (s.type === 'object' && !s.properties && s.additionalProperties && typeof s.additionalProperties === 'object')
    label = `record<string, ${typeLabel(s.additionalProperties)}>`
  else label = s.type ?? 'any'
  if (s.format) label += ` (${s.format})`
  return nullable ? `${label} | null` : label
}

const SAFE = 9007199254740991

/** Constraints as [translation key, value]; the page words them in the reader's language. */
export function constraints(input: JsonSchema): [string, string][] {
  const { schema: s } = withoutNull(input)
  const out: [string, string][] = []
  if (s.default !== undefined) out.push(['default', show(s.default)])
  if (s.minimum !== undefined && s.minimum > -SAFE) out.push(['min', String(s.minimum)])
  if (s.exclusiveMinimum !== undefined) out.push(['gt', String(s.exclusiveMinimum)])
  if (s.maximum !== undefined && s.maximum < SAFE) out.push(['max', String(s.maximum)])
  if (s.exclusiveMaximum !== undefined) out.push(['lt', String(s.exclusiveMaximum)])
  if (s.minLength !== undefined && s.minLength > 0) out.push(['minLength', String(s.minLength)])
  if (s.maxLength !== undefined) out.push(['maxLength', String(s.maxLength)])
  if (s.minItems !== undefined && s.minItems > 0) out.push(['minItems', String(s.minItems)])
  if (s.maxItems !== undefined) out.push(['maxItems', String(s.maxItems)])
  if (s.pattern) out.push(['pattern', s.pattern])
  return out
}

export interface Field {
  name: string
  required: boolean
  schema: JsonSchema
}

function fieldsOf(s: JsonSchema): Field[] {
  const required = new Set(s.required ?? [])
  return Object.entries(s.properties ?? {}).map(([name, schema]) => ({ name, required: required.has(name), schema }))
}

/** The fields shown under a node: an object's properties, an array's item fields, or per union member. */
export function childGroups(input: JsonSchema): { label?: number; fields: Field[] }[] {
  const { schema: s } = withoutNull(input)
  if (s.properties) return [{ fields: fieldsOf(s) }]
  if (s.type === 'array' && s.items) return childGroups(s.items)
  if (s.allOf?.length) return [{ fields: s.allOf.flatMap((m) => childGroups(m).flatMap((g) => g.fields)) }]
  const objects = variants(s).filter((m) => withoutNull(m).schema.properties)
  return objects.map((m, i) => ({ label: i + 1, fields: childGroups(m).flatMap((g) => g.fields) }))
}
