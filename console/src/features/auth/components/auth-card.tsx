/** Centred card framing every account page (setup, login, register, reset). */
import type { ReactNode } from 'react'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { BrandMark } from '@/components/layout/brand'

interface AuthCardProps {
  title: string
  description?: ReactNode
  children: ReactNode
  footer?: ReactNode
}

export function AuthCard({ title, description, children, footer }: AuthCardProps) {
  return (
    <div className="flex flex-1 items-center justify-center bg-gradient-to-b from-primary/5 to-transparent px-4 py-10 sm:py-16">
      <Card className="w-full max-w-md gap-5 shadow-lg shadow-primary/5">
        <CardHeader className="justify-items-center text-center">
          <BrandMark className="mb-2 size-10" />
          <CardTitle className="text-xl">{title}</CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
        <CardContent>{children}</CardContent>
        {footer && <CardFooter className="justify-center text-sm text-muted-foreground">{footer}</CardFooter>}
      </Card>
    </div>
  )
}
