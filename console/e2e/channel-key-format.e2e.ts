/**
 * Channel sheet, signed suppliers: the per-type key hint and the key-format check (a malformed
 * Bedrock key is explained before any request), and a Vertex AI service-account JSON pasted over
 * several lines counted as one key and saved as one channel with the key compacted.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { SHARED_ROOT, rootSession, type ApiSession } from '../../worker/e2e/support/api'
import { openPage } from './support/browser'
import { useBrowser } from './support/suite'
import { signInToPanel } from './support/console'
import { openNewChannelSheet } from './support/channels'

const NAME = `ui-vertex-${Date.now().toString(36).slice(-6)}`

describe('channel key formats', () => {
  const suite = useBrowser()
  let root: ApiSession

  beforeAll(async () => {
    root = await rootSession()
  })

  it('explains a malformed Bedrock key and saves a multi-line service-account JSON as one Vertex channel', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base })
    await signInToPanel(page, SHARED_ROOT)
    const sheet = await openNewChannelSheet(page)

    await sheet.getByTestId('channel-type').click()
    await page.getByRole('option', { name: 'AWS Bedrock' }).click()
    await sheet.getByText('Format: Region|AccessKeyID|SecretAccessKey[|SessionToken], or Region|BedrockAPIKey').waitFor()
    await sheet.locator('textarea[name="key"]').fill('AKIAEXAMPLE|secret')
    await sheet.getByTestId('channel-submit').click()
    await sheet.getByText('The first part must be an AWS region, e.g. us-east-1', { exact: true }).waitFor()

    await sheet.getByTestId('channel-type').click()
    await page.getByRole('option', { name: 'Vertex AI' }).click()
    const sa = await (await fetch(`${inject('mockUrl')}/vertex/service-account.json`)).json()
    await sheet.locator('textarea[name="key"]').fill(JSON.stringify(sa, null, 2))
    // One JSON document is one key, not one channel per line.
    await sheet.getByRole('button', { name: 'Create channel', exact: true }).waitFor()
    await sheet.locator('input[name="name"]').fill(NAME)
    await sheet.locator('input[name="base_url"]').fill(`${inject('mockUrl')}/vertex`)
    await sheet.locator('input[name="other"]').fill('us-central1|mock-project')
    const models = sheet.getByTestId('channel-models-input')
    await models.fill('gemini-vertex-ui')
    await models.press('Enter')
    await sheet.getByTestId('channel-submit').click()
    await page.getByText('Channel created').first().waitFor()

    const listed = await root.ok<{ data: { id: number; type: number }[] }>('GET', `/api/channel/?name=${NAME}`)
    expect(listed.data.map((c) => c.type)).toEqual([42])
    const saved = await root.ok<{ key: string }>('GET', `/api/channel/${listed.data[0]!.id}`)
    expect(JSON.parse(saved.key)).toEqual(sa)
    expect(saved.key).not.toContain('\n')
    await context.close()
  })
})
