/** Drizzle over the D1 binding. Cheap to create: call per request. */
import { drizzle } from 'drizzle-orm/d1'
import * as schema from './schema'

export const createDb = (d1: D1Database) => drizzle(d1, { schema })
