/** Types for Vite's `?raw` imports, used by adapter tests to load `__fixtures__` files as strings. */
declare module '*?raw' {
  const text: string
  export default text
}
