import { defineConfig } from 'drizzle-kit'

// Generates SQL migrations from worker/db/schema; wrangler applies them (`npm run db:migrate:*`).
export default defineConfig({
  dialect: 'sqlite',
  schema: './worker/db/schema/index.ts',
  out: './migrations',
})
