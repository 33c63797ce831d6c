/**
 * Channel tags and subscription plans (issue 33): a plan may limit its traffic to channels whose
 * tag is in its list. Before a hold the surface names the tags of the channels able to serve the
 * call (`servingTags`, from the routing table in the isolate, no D1 read), so the wallet lets a
 * tagged subscription cover it only when one of them is the plan's; once a tagged subscription
 * covered the hold, the surface's pick accepts only channels with one of its tags (`tagFilter`).
 */
import type { RoutedChannel } from './types'

/** The distinct non-empty tags of `channels`, sorted (a hold request's list). */
export function servingTags(channels: Iterable<RoutedChannel>): string[] {
  const tags = new Set<string>()
  for (const ch of channels) if (ch.tag) tags.add(ch.tag)
  return [...tags].sort()
}

/** Whether the channel carries one of `tags`. */
const hasTagIn = (channel: RoutedChannel, tags: readonly string[]) => channel.tag !== undefined && channel.tag !== '' && tags.includes(channel.tag)

/** The pick filter of a hold's subscription tags: undefined (any channel) when it names none. */
export function tagFilter(tags: readonly string[] | undefined): ((channel: RoutedChannel) => boolean) | undefined {
  if (!tags?.length) return undefined
  return (channel) => hasTagIn(channel, tags)
}
