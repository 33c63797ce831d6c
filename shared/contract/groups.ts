/** Wire shapes of the user-group endpoints: an admin row (GET /api/user_group/) and the caller's selectable groups (GET /api/user_group_map). */

/** A user group as admins list and edit it. */
export interface UserGroup {
  id: number
  symbol: string
  name: string
  ratio: number
  /** Requests per minute per user of the group (0 = none). */
  api_rate: number
  /** Tokens per minute per user of the group (0 = none). */
  tpm: number
  public: boolean
  enable: boolean
}

/** One entry of GET /api/user_group_map (keyed by the group's symbol): the enabled groups the caller may pick. */
export interface GroupInfo {
  name: string
  ratio: number
  public: boolean
}

/** Body of POST /api/user_group/ (PUT adds `id`). */
export type UserGroupBody = Omit<UserGroup, 'id'>
