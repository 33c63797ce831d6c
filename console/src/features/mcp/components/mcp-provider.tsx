/** Which dialog of the MCP page is open: create or edit a server, its tools (after a test), or confirm its deletion. */
import { createDialogController } from '@/lib/dialog-controller'
import type { McpServerView, McpToolList } from '../api'

export type McpDialog =
  | { kind: 'create' }
  | { kind: 'edit'; row: McpServerView }
  | { kind: 'tools'; row: McpServerView; list: McpToolList }
  | { kind: 'delete'; row: McpServerView }

const controller = createDialogController<McpDialog>('Mcp')
export const McpProvider = controller.Provider
export const useMcpDialog = controller.useDialog
