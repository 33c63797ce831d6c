/** Types of scripts/mock-tasks.mjs for the worker tests that run it as a fetch-level mock. */
export interface TaskMockReply {
  status: number
  body: any
}
export interface TaskMock {
  handles(path: string): boolean
  handle(method: string, path: string, headers: (name: string) => string | undefined | null, body: any): TaskMockReply
  tasks: { mj: Map<string, any>; suno: Map<string, any>; kling: Map<string, any> }
}
export function createTaskMock(options?: {
  now?: () => number
  stepMs?: number
  /** Called at submit for each later state change of a task that has a notifyHook. */
  onTransition?: (hook: string, delayMs: number, dto: () => Record<string, unknown>) => void
}): TaskMock
