import { expect, waitFor, type within } from 'storybook/test'

type Canvas = ReturnType<typeof within>

/**
 * The button named `name` once it can be clicked. `findByRole` alone returns a
 * disabled button, and a click on it does nothing: the widget's button is
 * labelled from the preview before the route that enables it has arrived.
 */
export async function enabledButton(canvas: Canvas, name: string | RegExp, timeout = 10_000) {
  let button: HTMLElement | undefined
  await waitFor(
    () => {
      button = canvas.getByRole('button', { name })
      expect(button).toBeEnabled()
    },
    { timeout },
  )
  return button as HTMLElement
}
