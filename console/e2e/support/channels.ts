/** Steps the channel browser tests share: reaching the "new channel" sheet through the menu. */
import type { Locator, Page } from 'playwright-core'

/** From any console page: opens Channels through the menu, then its create sheet; answers the sheet. */
export async function openNewChannelSheet(page: Page): Promise<Locator> {
  await page.getByRole('link', { name: 'Channels' }).click()
  await page.getByRole('heading', { name: 'Channels' }).waitFor()
  await page.getByTestId('channel-create').click()
  const sheet = page.getByTestId('channel-sheet')
  await sheet.getByRole('heading', { name: 'New channel' }).waitFor()
  return sheet
}
