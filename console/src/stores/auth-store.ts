/**
 * The signed-in user: kept in localStorage under `user` so a reload stays signed
 * in, mirrored across tabs, and read through `useAuthUser()`. Cleared on logout and on any 401.
 */
import { useSyncExternalStore } from 'react'
import { STORAGE_KEYS, readJson, writeJson } from '@/lib/storage'
import { ROLE } from '@contract/enums'

/** The profile the server returns from login, setup and /api/user/self. */
export interface UserProfile {
  id: number
  username: string
  display_name: string
  role: number
  status: number
  email: string
  avatar_url: string
  github_id: string
  oidc_id: string
  wechat_id: string
  lark_id: string
  telegram_id: number | string
  quota: number
  used_quota: number
  request_count: number
  group: string
  aff_code: string
  aff_count: number
  aff_quota: number
  inviter_id: number
  has_access_token: boolean
  last_login_time: number
  created_time: number
}

type Listener = () => void
const listeners = new Set<Listener>()
/** A stored value that is not a profile (older version, hand-edited) counts as signed out. */
function readStoredUser(): UserProfile | null {
  const value = readJson<Partial<UserProfile>>(STORAGE_KEYS.user)
  return value && typeof value.id === 'number' && typeof value.username === 'string' ? (value as UserProfile) : null
}

let current: UserProfile | null = readStoredUser()

function emit() {
  listeners.forEach((l) => l())
}

export const authStore = {
  getUser: () => current,
  setUser(user: UserProfile) {
    current = user
    writeJson(STORAGE_KEYS.user, user)
    emit()
  },
  clear() {
    if (current === null) return
    current = null
    writeJson(STORAGE_KEYS.user, null)
    emit()
  },
  subscribe(listener: Listener) {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

// Another tab signed in or out.
window.addEventListener('storage', (e) => {
  if (e.key !== STORAGE_KEYS.user) return
  current = readStoredUser()
  emit()
})

export function useAuthUser(): UserProfile | null {
  return useSyncExternalStore(authStore.subscribe, authStore.getUser)
}

export const isAdmin = (user: Pick<UserProfile, 'role'> | null | undefined) => (user?.role ?? 0) >= ROLE.ADMIN
export const isRoot = (user: Pick<UserProfile, 'role'> | null | undefined) => (user?.role ?? 0) >= ROLE.ROOT
