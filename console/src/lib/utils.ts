/** Class-name helper shared by every component (clsx + tailwind-merge, as in shadcn/ui). */
import { clsx, type ClassValue } from 'clsx'
import { twMerge } from 'tailwind-merge'

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs))
}
