import { expect, waitFor, within } from 'storybook/test'
import type { QueryResource } from '../../src/exports/query.js'
import { storyService, withMockService } from './storyContext.js'

type Canvas = ReturnType<typeof within>

/** A 60-second latency: the hook's loading state, showing `text`. */
export function loadingStory(text: string) {
  return {
    parameters: { mockService: withMockService({ latency: 60_000 }) },
    play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
      await expect(await within(canvasElement).findByText(text, {}, { timeout: 5000 })).toBeVisible()
    },
  }
}

/**
 * One 429 with `Retry-After: 2` on `endpoint`: the whole client pauses (the
 * banner shows it), then the query retries, the data appears and the banner goes.
 */
export function rateLimitedStory(endpoint: string, dataAppeared: (canvas: Canvas) => Promise<unknown>) {
  return {
    parameters: {
      mockService: withMockService({
        setup: (service) =>
          service.fail({ status: 429, times: 1, endpoint, headers: { 'retry-after': '2' } }),
      }),
    },
    play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
      const canvas = within(canvasElement)
      await expect(
        await canvas.findByRole('status', { name: 'rate limited' }, { timeout: 5000 }),
      ).toHaveTextContent(/resuming in [12] s/)
      await dataAppeared(canvas)
      await waitFor(() => expect(canvas.queryByRole('status', { name: 'rate limited' })).toBeNull())
      const statuses = storyService()
        .log.filter((entry) => entry.path === endpoint)
        .map((entry) => entry.status)
      await expect(statuses).toEqual([429, 200])
    },
  }
}

/** `endpoint` keeps failing with `status`: after three tries the typed HttpError is shown. */
export function serverErrorStory(endpoint: string, resource: QueryResource, status: number, body?: string) {
  return {
    parameters: {
      mockService: withMockService({ setup: (service) => service.fail({ status, endpoint, body }) }),
      // Keep the default retry policy, without its backoff, so the story settles quickly.
      swapProvider: { queryDefaults: { [resource]: { retryDelay: 200 } } },
    },
    play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
      const alert = await within(canvasElement).findByRole('alert', {}, { timeout: 8000 })
      await expect(alert).toHaveTextContent(`HttpError: The swap service answered ${status}.`)
      await expect(storyService().count(endpoint)).toBe(3)
    },
  }
}

/** The service answers an empty list on `endpoint`: the demo says `text`. */
export function emptyListStory(endpoint: string, text: string) {
  return {
    parameters: {
      mockService: withMockService({
        setup: (service) => service.fail({ status: 200, times: 1, endpoint, body: [] }),
      }),
    },
    play: async ({ canvasElement }: { canvasElement: HTMLElement }) => {
      await expect(await within(canvasElement).findByText(text, {}, { timeout: 5000 })).toBeVisible()
      await expect(storyService().count(endpoint)).toBe(1)
    },
  }
}
