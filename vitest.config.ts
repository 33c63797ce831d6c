/**
 * Four test projects:
 * - worker: worker/ (the wallet and channel health included) and durable-objects/ tests inside workerd (@cloudflare/vitest-plugin) against
 *   the real D1 migrations, with outbound fetches answered by test mocks;
 * - console: Node tests of pure console logic, of shared/contract/ and of the import library
 *   (shared/import/);
 * - scripts: Node tests of scripts/ (the database importer's CLI, the lint boundaries), without a server;
 * - e2e: Node tests that start the real server (console build + worker on workerd) and a mock
 *   upstream, then drive it with the official SDK and with Chromium (playwright-core).
 */
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'

const here = (p: string) => decodeURIComponent(new URL(p, import.meta.url).pathname)

export default defineConfig(async () => {
  const migrations = await readD1Migrations('migrations')
  return {
    test: {
      reporters: ['default', 'json'],
      outputFile: { json: 'test-artifacts/results.json' },
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: './wrangler.toml' },
              miniflare: {
                bindings: { TEST_MIGRATIONS: migrations, CRITICAL_RATE_LIMIT: '1000' },
              },
            }),
          ],
          test: {
            name: 'worker',
            // One workerd module graph for every file: a fresh graph per file cost about 9 s of module
            // loading each (206 files: ~29 of the suite's minutes). Each test still starts from an
            // empty gateway (setupFiles: storage reset, DOs aborted, migrations, isolate caches).
            isolate: false,
            include: ['worker/**/*.test.ts', 'durable-objects/**/*.test.ts'],
            testTimeout: 30_000,
            setupFiles: ['./worker/test/apply-migrations.ts'],
            // A local SMTP server for the mail tests (real delivery over connect() from workerd).
            globalSetup: ['./worker/test/smtp-global-setup.ts'],
          },
        },
        {
          // Pure logic of the console and of the shared code (formatters, schemas, range helpers, the
          // SSE decoder, the top-up formula, the import library's parser and mappers) in plain Node:
          // no browser, no server.
          resolve: { alias: { '@contract': here('./shared/contract'), '@': here('./console/src') } },
          test: {
            name: 'console',
            include: ['console/src/**/*.test.ts', 'shared/**/*.test.ts'],
            environment: 'node',
          },
        },
        {
          // Plain Node tests of the scripts (the one-api/one-hub import CLI): no server, no workerd.
          test: {
            name: 'scripts',
            include: ['scripts/**/*.test.ts'],
            environment: 'node',
            testTimeout: 60_000,
          },
        },
        {
          test: {
            name: 'e2e',
            include: ['console/e2e/**/*.e2e.ts', 'worker/e2e/**/*.e2e.ts', 'scripts/**/*.e2e.ts'],
            environment: 'node',
            globalSetup: ['./scripts/test-server.ts'],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            fileParallelism: false,
          },
        },
      ],
    },
  }
})
