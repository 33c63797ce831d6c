/** A request body or parameter schema as a readable tree: name, type, required, constraints, description, nested fields. */
import { useTranslation } from 'react-i18next'
import { cn } from '@/lib/utils'
import type { JsonSchema } from '../api'
import { childGroups, constraints, typeLabel, type Field } from '../schema-text'

export function Constraints({ schema }: { schema: JsonSchema }) {
  const { t } = useTranslation('api-docs')
  const list = constraints(schema)
  if (!list.length) return null
  return (
    <span className="flex flex-wrap gap-1">
      {list.map(([key, value]) => (
        <span key={key} className="rounded bg-muted px-1.5 py-0.5 font-mono text-[11px] text-muted-foreground break-all">
          {t(`constraint.${key}`, { value })}
        </span>
      ))}
    </span>
  )
}

function FieldRow({ field, depth }: { field: Field; depth: number }) {
  const { t } = useTranslation('api-docs')
  return (
    <li className="py-1.5" data-testid="schema-field" data-field={field.name}>
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <span className="font-mono text-sm font-medium break-all">{field.name}</span>
        <span className="font-mono text-xs text-sky-700 break-all dark:text-sky-400">{typeLabel(field.schema)}</span>
        {field.required && <span className="text-xs font-medium text-destructive">{t('required')}</span>}
        <Constraints schema={field.schema} />
      </div>
      {field.schema.description && <p className="mt-0.5 text-xs text-muted-foreground">{field.schema.description}</p>}
      <SchemaFields schema={field.schema} depth={depth + 1} />
    </li>
  )
}

/** The nested fields of a schema (nothing for a scalar); depth is capped against runaway nesting. */
export function SchemaFields({ schema, depth = 0 }: { schema: JsonSchema; depth?: number }) {
  const { t } = useTranslation('api-docs')
  const groups = depth > 8 ? [] : childGroups(schema)
  if (!groups.length) return null
  return (
    <div className={cn(depth > 0 && 'mt-1 ml-1 border-l pl-3')}>
      {groups.map((group, i) => (
        <div key={i}>
          {group.label !== undefined && <div className="pt-1 text-xs font-medium text-muted-foreground">{t('variant', { n: group.label })}</div>}
          <ul className="divide-y divide-border/60">
            {group.fields.map((field) => (
              <FieldRow key={field.name} field={field} depth={depth} />
            ))}
          </ul>
        </div>
      ))}
    </div>
  )
}

/** A whole schema: its type line, then its fields. */
export function SchemaTree({ schema }: { schema: JsonSchema }) {
  return (
    <div className="rounded-md border bg-muted/30 px-3 py-2" data-testid="schema-tree">
      <div className="font-mono text-xs text-muted-foreground">{typeLabel(schema)}</div>
      <SchemaFields schema={schema} />
    </div>
  )
}
