/** The id of this console build (vite.config.ts `define`). */
declare const __CONSOLE_BUILD__: string
