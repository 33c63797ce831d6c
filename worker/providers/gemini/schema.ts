/** JSON Schema (as OpenAI tools carry it) → the OpenAPI subset Gemini accepts in functionDeclarations.parameters. */

/** Schema fields Gemini's `Schema` message knows; anything else (additionalProperties, $schema, …) is a 400. */
const KEEP = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'default',
  'minimum',
  'maximum',
  'propertyOrdering',
])
const FORMATS = new Set(['enum', 'date-time', 'int32', 'int64', 'float', 'double'])
const MAX_DEPTH = 32

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v)

/** Resolves a local `#/$defs/…` or `#/definitions/…` reference against the root schema. */
function resolveRef(root: Json, ref: string): Json | undefined {
  const m = ref.match(/^#\/(\$defs|definitions)\/(.+)$/)
  const defs = m ? root[m[1]!] : undefined
  const target = isObject(defs) ? defs[decodeURIComponent(m![2]!)] : undefined
  return isObject(target) ? target : undefined
}

/** `refs` holds the references being expanded on the current path: a cycle becomes an open schema. */
function convert(node: unknown, root: Json, depth: number, refs: ReadonlySet<string> = new Set()): Json {
  if (!isObject(node) || depth > MAX_DEPTH) return {}
  if (typeof node.$ref === 'string') {
    const target = refs.has(node.$ref) ? undefined : resolveRef(root, node.$ref)
    const { $ref: ref, ...rest } = node
    return convert({ ...(target ?? {}), ...rest }, root, depth + 1, new Set(refs).add(ref as string))
  }
  const sub = (v: unknown) => convert(v, root, depth + 1, refs)
  const out: Json = {}
  let variant: Json = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isObject(value)) {
      // An empty map is a 400 ("properties: should be non-empty for OBJECT type").
      if (Object.keys(value).length) out.properties = Object.fromEntries(Object.entries(value).map(([name, p]) => [name, sub(p)]))
    } else if (key === 'items') {
      out.items = sub(Array.isArray(value) ? value[0] : value)
    } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      const variants = value.filter((v) => !(isObject(v) && v.type === 'null'))
      if (variants.length < value.length) out.nullable = true
      if (variants.length === 1) variant = sub(variants[0])
      else out.anyOf = variants.map(sub)
    } else if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((t) => t !== 'null')
      if (types.length < value.length) out.nullable = true
      if (types[0] !== undefined) out.type = types[0]
    } else if (key === 'const') {
      if (typeof value === 'string') out.enum = [value]
    } else if (key === 'format') {
      if (typeof value === 'string' && FORMATS.has(value)) out.format = value
    } else if (KEEP.has(key)) out[key] = value
  }
  // A lone non-null variant of anyOf is unwrapped; the node's own fields (e.g. description) win.
  return { ...variant, ...out }
}

export function toGeminiSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return convert(schema, schema, 0)
}

/** Function parameters: always an OBJECT schema, or omitted for a tool that takes no arguments. */
export function toGeminiParameters(schema: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!schema) return undefined
  const out = toGeminiSchema(schema)
  if (!out.properties) return undefined
  return { ...out, type: 'object' }
}
