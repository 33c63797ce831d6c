/**
 * One endpoint of the reference: a row (method badge, path, minimum role) that expands into who may
 * call it and how, its parameters table and its request body tree.
 */
import { Fragment, type ReactNode } from 'react'
import { ChevronRight } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import { cn } from '@/lib/utils'
import type { ApiParameter, Endpoint, Role } from '../api'
import { typeLabel } from '../schema-text'
import { Constraints, SchemaTree } from './schema-tree'

const METHOD_STYLE: Record<string, string> = {
  GET: 'border-sky-500/40 bg-sky-500/10 text-sky-700 dark:text-sky-400',
  POST: 'border-emerald-500/40 bg-emerald-500/10 text-emerald-700 dark:text-emerald-400',
  PUT: 'border-amber-500/40 bg-amber-500/10 text-amber-700 dark:text-amber-400',
  PATCH: 'border-violet-500/40 bg-violet-500/10 text-violet-700 dark:text-violet-400',
  DELETE: 'border-red-500/40 bg-red-500/10 text-red-700 dark:text-red-400',
}

const ROLE_STYLE: Record<Role, string> = {
  guest: 'text-muted-foreground',
  user: '',
  admin: 'border-sky-500/40 text-sky-700 dark:text-sky-400',
  root: 'border-transparent bg-warning/20 text-amber-700 dark:text-warning',
}

export function MethodBadge({ method }: { method: string }) {
  return (
    <Badge variant="outline" className={cn('w-16 justify-center font-mono', METHOD_STYLE[method])}>
      {method}
    </Badge>
  )
}

/** A path that wraps at its slashes on narrow screens, not mid-word. */
function PathText({ path }: { path: string }) {
  return (
    <span className="min-w-0 flex-1 font-mono text-sm [overflow-wrap:anywhere]">
      {path.split('/').map((part, i) => (
        <Fragment key={i}>
          {i > 1 && <wbr />}
          {i > 0 && '/'}
          {part}
        </Fragment>
      ))}
    </span>
  )
}

function ParametersTable({ parameters }: { parameters: ApiParameter[] }) {
  const { t } = useTranslation('api-docs')
  return (
    <Table data-testid="endpoint-parameters">
      <TableHeader>
        <TableRow>
          <TableHead>{t('columns.name')}</TableHead>
          <TableHead>{t('columns.in')}</TableHead>
          <TableHead>{t('columns.type')}</TableHead>
          <TableHead>{t('columns.rules')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {parameters.map((p) => (
          <TableRow key={`${p.in}:${p.name}`}>
            <TableCell className="font-mono">
              {p.name}
              {p.required && (
                <span className="ml-1 text-destructive" title={t('required')}>
                  *
                </span>
              )}
            </TableCell>
            <TableCell>{t(`in.${p.in}`)}</TableCell>
            <TableCell className="font-mono text-xs">{typeLabel(p.schema)}</TableCell>
            <TableCell className="whitespace-normal">
              <Constraints schema={p.schema} />
              {p.description && <span className="text-xs text-muted-foreground">{p.description}</span>}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2">
      <h4 className="text-sm font-semibold">{title}</h4>
      {children}
    </section>
  )
}

export function EndpointItem({ endpoint }: { endpoint: Endpoint }) {
  const { t } = useTranslation('api-docs')
  const { method, path, operation } = endpoint
  const role = operation['x-role']
  const body = operation.requestBody ? Object.entries(operation.requestBody.content) : []
  const auth = operation.security.flatMap((s) => {
    const names = Object.keys(s)
    return names.length ? [names.map((n) => t(`security.${n}`)).join(' + ')] : []
  })
  return (
    <Collapsible data-testid="endpoint" data-endpoint={`${method} ${path}`} className="border-b last:border-b-0">
      <CollapsibleTrigger className="group flex w-full items-center gap-2 px-3 py-2.5 text-left hover:bg-muted/50 focus-visible:bg-muted/50 focus-visible:outline-none">
        <ChevronRight className="size-4 shrink-0 text-muted-foreground transition-transform group-data-[state=open]:rotate-90" />
        <MethodBadge method={method} />
        <PathText path={path} />
        <Badge variant="outline" className={cn('shrink-0', ROLE_STYLE[role])} data-testid="endpoint-role">
          {t(`roles.${role}`)}
        </Badge>
      </CollapsibleTrigger>
      <CollapsibleContent className="grid gap-4 px-3 pt-1 pb-4 sm:pl-9">
        <div className="grid gap-1 text-sm">
          <p>{t(`roleText.${role}`)}</p>
          <p className="text-muted-foreground">{auth.length ? t('authWith', { list: auth.join(t('or')) }) : t('noAuth')}</p>
        </div>
        {operation.parameters?.length ? (
          <Section title={t('parameters')}>
            <ParametersTable parameters={operation.parameters} />
          </Section>
        ) : null}
        {body.map(([mediaType, { schema }]) => (
          <Section key={mediaType} title={`${t('requestBody')} · ${mediaType}`}>
            <SchemaTree schema={schema} />
          </Section>
        ))}
        {!operation.parameters?.length && !body.length && <p className="text-sm text-muted-foreground">{t('noInput')}</p>}
        <p className="text-xs text-muted-foreground">{t('responses')}</p>
      </CollapsibleContent>
    </Collapsible>
  )
}
