/**
 * Build of the console: React + TanStack file routes (lazy, code-split) + Tailwind v4, written to
 * console/dist and served by the Worker as static assets. Asset URLs are relative (`base: './'`) and
 * resolve against index.html's `<base href>`, which the Worker sets to its runtime BASE_PATH;
 * each build gets an id (__CONSOLE_BUILD__, and console-build.txt for /api/status).
 */
import { writeFileSync } from 'node:fs'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
// @ts-expect-error plain ESM build scripts without types
import { writeTokenizerAssets } from '../scripts/build-tokenizer-assets.mjs'
// @ts-expect-error plain ESM build scripts without types
import { writeSecurityHeaders } from '../scripts/build-headers.mjs'

const here = (p: string) => decodeURIComponent(new URL(p, import.meta.url).pathname)

export default defineConfig(() => {
  // One id per build: the console carries it, /api/status reports the deployed one (console-build.txt).
  const build = process.env.CONSOLE_BUILD_ID || `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`
  return {
    root: here('.'),
    // One build for any sub-path: the Worker serves index.html with <base href> set to BASE_PATH.
    base: './',
    envDir: here('..'),
    define: { __CONSOLE_BUILD__: JSON.stringify(build) },
    resolve: { alias: { '@': here('./src'), '@contract': here('../shared/contract') } },
    plugins: [
      tanstackRouter({
        target: 'react',
        routesDirectory: here('./src/routes'),
        generatedRouteTree: here('./src/routeTree.gen.ts'),
        autoCodeSplitting: true,
      }),
      tailwindcss(),
      react(),
      {
        // Tokenizer ranks for the Worker and the security headers of the pages live next to the console build.
        name: 'gateway-assets',
        apply: 'build',
        async closeBundle() {
          await writeTokenizerAssets(here('./dist'))
          writeSecurityHeaders(here('./dist'))
          writeFileSync(here('./dist/console-build.txt'), `${build}\n`)
        },
      },
    ],
    build: {
      outDir: here('./dist'),
      emptyOutDir: true,
      chunkSizeWarningLimit: 600,
    },
  }
})
