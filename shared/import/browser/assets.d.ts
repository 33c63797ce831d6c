/** Vite asset imports used by the console's planner worker (type-checked here, bundled by Vite). */
declare module '*?url' {
  const url: string
  export default url
}
