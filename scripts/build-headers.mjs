#!/usr/bin/env node
/**
 * Writes console/dist/_headers: security headers for every console page served from static assets
 * (the Worker's own responses get theirs from hono/secure-headers). The Content-Security-Policy
 * allows the inline scripts of index.html by their SHA-256, so it stays strict without 'unsafe-inline'.
 * Run after every console build (a plugin in console/vite.config.ts).
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export function writeSecurityHeaders(dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../console/dist')) {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8')
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`)
  const csp = [
    "default-src 'self'",
    // 'wasm-unsafe-eval' compiles WebAssembly only (the import page's SQLite reader); it allows no JS eval.
    `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')} https://challenges.cloudflare.com`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self' https:",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ')
  const headers = [
    `Content-Security-Policy: ${csp}`,
    'X-Content-Type-Options: nosniff',
    'X-Frame-Options: DENY',
    'Referrer-Policy: strict-origin-when-cross-origin',
    'Permissions-Policy: camera=(), microphone=(), geolocation=()',
  ]
  writeFileSync(path.join(dist, '_headers'), `/*\n${headers.map((h) => `  ${h}`).join('\n')}\n`)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) writeSecurityHeaders()
